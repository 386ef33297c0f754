import { isRouteErrorResponse, Link, useLocation, useRouteError } from '@remix-run/react';
import { SERVER_ERROR } from '@custom-room/contract/constants';

function messageOf(data: unknown): string | null {
  if (data && typeof data === 'object' && 'message' in data && typeof (data as { message: unknown }).message === 'string') {
    return (data as { message: string }).message;
  }
  return typeof data === 'string' && data.length < 300 ? data : null;
}

const DEFAULTS: Record<number, { title: string; message: string }> = {
  403: { title: 'Not allowed', message: 'You are not allowed to see this page.' },
  404: { title: 'Page not found', message: 'We could not find that page. It may have moved or never existed.' },
  503: { title: 'Server unavailable', message: 'We could not reach the tournament server. Please try again in a moment.' },
};

/** The one error page every route's ErrorBoundary renders: never a stack trace, always a way on. */
export function GeneralErrorBoundary() {
  const error = useRouteError();
  const location = useLocation();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const known = DEFAULTS[status];
  const message = (isRouteErrorResponse(error) ? messageOf(error.data) : null) ?? known?.message ?? SERVER_ERROR;
  const retry = status === 503 || status >= 500;
  const here = location.pathname + location.search;

  return (
    <section className="error-page" aria-labelledby="error-title">
      <h1 id="error-title">{known?.title ?? 'Something went wrong'}</h1>
      <p role="alert">{message}</p>
      <p className="error-actions">
        {retry ? (
          <a className="button" href={here}>
            Try again
          </a>
        ) : null}
        <Link className="button button-secondary" to="/">
          Go to the home page
        </Link>
      </p>
    </section>
  );
}
