import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { NavLink, Outlet, useLoaderData, useLocation } from '@remix-run/react';
import { standingAllows } from '@custom-room/contract';
import { GeneralErrorBoundary } from '~/components/error-page';
import { requireDesk } from '~/utils/desk.server';
import '~/styles/admin.css';

export const meta: MetaFunction = () => [{ title: 'Organiser tools | Custom Room' }, { name: 'robots', content: 'noindex' }];

// Organiser pages: never stored by any cache.
export const headers: HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' });

/** The /admin layout (spec §2): the organiser sidebar around every admin screen. Admins only (§6). */
export async function loader({ request }: LoaderFunctionArgs) {
  const desk = await requireDesk(request);
  // Issue 29: a crew member who organises nothing of its own has no "Add tournament".
  // A lobby manager handles no payments: no "Teams and payments".
  const payments = desk.siteAdmin || [...desk.kinds.values()].some((kind) => standingAllows(kind, 'payments'));
  return { organises: desk.organises, siteAdmin: desk.siteAdmin, payments };
}

// Issue 27 item 24: two lists named alike confused; each says what it is for, and each tournament's "Manage" is its hub (/admin/:id).
const LINKS = [
  { to: '/admin/manage-tournament', label: 'Tournaments', also: '/admin/manage-tournaments' },
  { to: '/admin/tournament-list', label: 'Teams and payments', payments: true },
  { to: '/admin/add-tournament', label: 'Add tournament', organisers: true },
  // Decision 068: the organiser's own public page, its logo and links.
  { to: '/admin/organiser', label: 'Your organiser page', organisers: true },
  { to: '/admin/organisers', label: 'Organisers', siteAdmins: true },
];

export default function AdminLayout() {
  const { pathname } = useLocation();
  const { organises, siteAdmin, payments } = useLoaderData<typeof loader>();
  const shown = LINKS.filter((link) => (organises || !link.organisers) && (siteAdmin || !link.siteAdmins) && (payments || !link.payments));
  return (
    <div className="admin">
      <nav className="admin-nav" aria-label="Organiser">
        <p className="admin-nav-title">Organiser</p>
        <ul>
          {shown.map((link) => (
            <li key={link.to}>
              <NavLink to={link.to} className={({ isActive }) => (isActive || pathname === link.also ? 'active' : undefined)}>
                {link.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="admin-body">
        <Outlet />
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
