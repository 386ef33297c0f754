import { Form, NavLink } from '@remix-run/react';
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
