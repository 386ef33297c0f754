import { Form, NavLink } from '@remix-run/react';
import type { ReactNode } from 'react';
import { SubmitButton } from './ui/submit-button';
import '~/styles/forms.css';

/** The player's dashboard bar (spec §2): Profile, My Tournaments, and Logout, which is a POST (never a link). */
export function DashboardNav() {
  return (
    <nav className="dashboard-nav" aria-label="Your account">
      <ul>
        <li>
          <NavLink to="/profile">Profile</NavLink>
        </li>
        <li>
          <NavLink to="/my-tournaments">My Tournaments</NavLink>
        </li>
        <li>
          <Form method="post" action="/logout">
            <SubmitButton className="dashboard-logout" formPath="/logout" pendingLabel="Logging out…">
              Logout
            </SubmitButton>
          </Form>
        </li>
      </ul>
    </nav>
  );
}

/** The player's dashboard: the bar above the page's own content (profile, My Tournaments, team and matches pages). */
export function Dashboard({ children }: { children: ReactNode }) {
  return (
    <div className="dashboard">
      <DashboardNav />
      <div className="dashboard-body">{children}</div>
    </div>
  );
}
