import type { HeadersFunction, LinksFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { NavLink, Outlet, useLoaderData, useLocation } from '@remix-run/react';
import { standingAllows } from '@custom-room/contract';
import { GeneralErrorBoundary } from '~/components/error-page';
import adminOpsCss from '~/styles/admin-ops.css';
import adminStagesCss from '~/styles/admin-stages.css';
import adminCss from '~/styles/admin.css';
import lobbyReportsCss from '~/styles/lobby-reports.css';
import { requireDesk } from '~/utils/desk.server';

/**
 * The organiser screens' rules (~2 KB gzip) are linked here, for /admin only, not put in the inlined
 * bundle that every public page carries (decision 025, amended): with them inline, issue 29 pushed the
 * HTML of the public pages past one TCP round trip (14.6 KB). A client navigation into /admin waits for
 * these files before it renders (Remix loads a route's stylesheet links first). No other module may
 * import them as a side effect (tests/web/inline-css.test.ts).
 */
export const links: LinksFunction = () =>
  [adminOpsCss, adminStagesCss, adminCss, lobbyReportsCss].map((href) => ({ rel: 'stylesheet', href }));

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
