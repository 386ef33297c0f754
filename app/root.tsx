import { cssBundleHref } from '@remix-run/css-bundle';
import { type LinksFunction, type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node';
import { type ShouldRevalidateFunction, Links, Meta, Outlet, Scripts, ScrollRestoration, useRouteLoaderData } from '@remix-run/react';
import { useEffect } from 'react';
import { GeneralErrorBoundary } from './components/error-page';
import { SiteFooter } from './components/site-footer';
import { SiteNav } from './components/site-nav';
import { getEnv, socialLinks } from './utils/env.server';
import { inlineCssMark } from './utils/inline-css.server';
import { useNonce } from './utils/nonce-provider';
import { isAdmin, readFlash } from './utils/session.server';
import { signedIn } from './utils/signed-in.server';
import './styles/app.css';

const INLINE_CSS_ID = 'app-css';

/**
 * The whole stylesheet goes inline in <head> (~6 KB gzip; decision 025): first paint needs no second
 * request. The server renders a mark the web server replaces with the stylesheet, which it compressed once
 * (app/utils/document.server.ts, decision 090); so it comes first in <head>, where every page has the same
 * bytes. The browser takes it from the page it was given, before hydration, so a remounted document (root
 * error boundary) keeps it without shipping it twice.
 * Null (dev server, unreadable file): the bundle is linked as a stylesheet instead.
 */
const inlineCss: string | null =
  typeof document === 'undefined' ? inlineCssMark(cssBundleHref) : (document.getElementById(INLINE_CSS_ID)?.textContent ?? null);

export const links: LinksFunction = () => [
  ...(cssBundleHref && !inlineCss ? [{ rel: 'stylesheet', href: cssBundleHref }] : []),
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
];

export const meta: MetaFunction = () => [
  { title: 'Custom Room: BGMI and Free Fire tournaments' },
  {
    name: 'description',
    content: 'Register your squad, pay by UPI and follow room IDs and points tables for BGMI and Free Fire custom-room tournaments.',
  },
];

export async function loader({ request }: LoaderFunctionArgs) {
  const env = getEnv();
  // Signed in as the gateway sees it now: a token revoked elsewhere ("Log out everywhere") shows nobody and clears the cookie.
  const [signed, flash] = await Promise.all([signedIn(request), readFlash(request)]);
  const user = signed.user;
  return data(
    {
      user: user ? { username: user.username, isAdmin: isAdmin(user), unread: signed.state === 'accepted' ? signed.unread : 0 } : null,
      timeZone: env.APP_TIME_ZONE,
      social: socialLinks(env),
      flash: flash.message,
    },
    { headers: signed.state === 'refused' ? { 'Set-Cookie': signed.setCookie } : flash.headers },
  );
}

/**
 * After every form post, also a refused one (4xx, which Remix does not revalidate by default), so a
 * flash message from an earlier page never stays beside the new error.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) =>
  formMethod && formMethod.toUpperCase() !== 'GET' ? true : defaultShouldRevalidate;

export type RootData = Awaited<ReturnType<typeof loader>>['data'];

/** Root loader data; undefined while the root's error boundary renders. */
export function useRootData(): RootData | undefined {
  return useRouteLoaderData<typeof loader>('root') as RootData | undefined;
}

/** The app's time zone for formatting dates (server and browser must agree). */
export function useTimeZone(): string {
  return useRootData()?.timeZone ?? 'Asia/Kolkata';
}

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  const root = useRootData();
  // Hydration is done (it starts after the page's load event, decision 028): tests wait for this
  // before they use what JavaScript adds, as a person would wait for the page to settle.
  useEffect(() => {
    document.documentElement.dataset.hydrated = '';
  }, []);
  return (
    <html lang="en-IN">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#0f1220" />
        {inlineCss ? <style id={INLINE_CSS_ID} dangerouslySetInnerHTML={{ __html: inlineCss }} /> : null}
        <Meta />
        <Links />
      </head>
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <SiteNav user={root?.user ?? null} />
        {root?.flash ? (
          <p className="flash" role="status">
            {root.flash}
          </p>
        ) : null}
        <main id="main" tabIndex={-1}>
          {children}
        </main>
        <SiteFooter social={root?.social ?? []} />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
