import { Link, NavLink, useLocation } from '@remix-run/react';
import { useEffect, useRef } from 'react';
import { UNREAD_COUNT_MAX } from '@custom-room/contract/constants';

/**
 * The hamburger is a <details>: it opens and closes without JavaScript, and a chosen link loads a
 * new page with it closed. With JavaScript (client navigation) it is closed on every navigation.
 */
export function SiteNav({ user }: { user: { username: string; isAdmin: boolean; unread?: number } | null }) {
  const menu = useRef<HTMLDetailsElement>(null);
  const location = useLocation();
  useEffect(() => {
    if (menu.current) menu.current.open = false;
  }, [location.key]);

  const initial = user?.username.slice(0, 1).toUpperCase() ?? '';
  return (
    <header className="site-header">
      <nav className="site-nav" aria-label="Main">
        <Link to="/" className="brand">
          <span aria-hidden="true" className="brand-mark">
            CR
          </span>
          Custom Room
        </Link>
        {/* Phones: the list behind a <details> hamburger. Wide screens: the same links inline (CSS shows one or the other). */}
        <details className="nav-menu" ref={menu}>
          <summary aria-label="Menu">
            <span className="hamburger" aria-hidden="true" />
          </summary>
          <NavLinks className="nav-links" signedIn={!!user} isAdmin={!!user?.isAdmin} />
        </details>
        <NavLinks className="nav-links-wide" signedIn={!!user} isAdmin={!!user?.isAdmin} />
        {user ? <NotificationsLink unread={user.unread ?? 0} /> : null}
        <Link to="/profile" className="avatar" aria-label={user ? `Your profile (${user.username})` : 'Profile and login'}>
          {user ? <span aria-hidden="true">{initial}</span> : <ProfileIcon />}
        </Link>
      </nav>
    </header>
  );
}

/** The spec's links, then the signed-in player's own tournaments (issue 19) and, for organisers, Admin. */
function NavLinks({ className, signedIn, isAdmin }: { className: string; signedIn: boolean; isAdmin: boolean }) {
  return (
    <ul className={className}>
      <li>
        <NavLink to="/" end>
          Home
        </NavLink>
      </li>
      <li>
        <NavLink to="/tournaments">Tournaments</NavLink>
      </li>
      <li>
        <NavLink to="/videos">Videos</NavLink>
      </li>
      {signedIn ? (
        <li>
          <NavLink to="/my-tournaments">My Tournaments</NavLink>
        </li>
      ) : null}
      {isAdmin ? (
        <li>
          <NavLink to="/admin">Admin</NavLink>
        </li>
      ) : null}
    </ul>
  );
}

/** The bell beside the avatar (decision 044): the unread count comes with the root loader's own call to the gateway. */
function NotificationsLink({ unread }: { unread: number }) {
  const label =
    unread === 0 ? 'Notifications' : `Notifications, ${unread > UNREAD_COUNT_MAX ? `more than ${UNREAD_COUNT_MAX}` : unread} unread`;
  return (
    <Link to="/notifications" className="nav-bell" aria-label={label}>
      <svg aria-hidden="true" width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2">
        <path d="M6 16V11a6 6 0 0 1 12 0v5l2 2H4z" />
        <path d="M10 20a2 2 0 0 0 4 0" />
      </svg>
      {unread > 0 ? (
        <span className="nav-bell-count" aria-hidden="true">
          {unread > UNREAD_COUNT_MAX ? `${UNREAD_COUNT_MAX}+` : unread}
        </span>
      ) : null}
    </Link>
  );
}

function ProfileIcon() {
  return (
    <svg aria-hidden="true" width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2">
      <circle cx="12" cy="8" r="4" />
      <path d="M4 21c0-4 4-6 8-6s8 2 8 6" />
    </svg>
  );
}
