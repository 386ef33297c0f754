import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, redirect } from '@remix-run/node';
import { Form, Link } from '@remix-run/react';
import { GeneralErrorBoundary } from '~/components/error-page';
import { SubmitButton } from '~/components/ui/submit-button';
import { gateway, GatewayError, requestId } from '~/utils/gateway.server';
import { LOGOUT_EVERYWHERE } from '~/utils/intents';
import { logger } from '~/utils/logger.server';
import { getUser, logout } from '~/utils/session.server';

export const meta: MetaFunction = () => [
  { title: 'Log out | Custom Room' },
  { name: 'description', content: 'Log out of your Custom Room account.' },
];

/** A GET never logs anyone out (a link or an image on another site could send one); it offers the button instead. */
export async function loader({ request }: LoaderFunctionArgs) {
  if (!(await getUser(request))) throw redirect('/');
  return null;
}

export async function action({ request }: ActionFunctionArgs) {
  const everywhere = (await request.formData()).get('intent') === LOGOUT_EVERYWHERE;
  try {
    // The gateway ends the token itself, so a copied cookie or token stops working too (decision 019).
    await gateway.endSession(request, everywhere);
  } catch (err) {
    // Already ended or expired (401 became a redirect), or the gateway is down: log out here all the same.
    if (!(err instanceof GatewayError) && !(err instanceof Response)) throw err;
    if (err instanceof GatewayError && err.unavailable)
      logger.warn({ reqId: requestId(request) }, 'logout: the gateway could not end the token');
  }
  return logout(request, { everywhere });
}

export default function Logout() {
  return (
    <section className="form-page" aria-labelledby="logout-title">
      <h1 id="logout-title">Log out</h1>
      <p>Do you want to log out of Custom Room on this device?</p>
      <Form method="post" className="form">
        <SubmitButton pendingLabel="Logging out…">Log out</SubmitButton>
      </Form>
      <p className="form-footer">
        <Link to="/profile">Back to your profile</Link>
      </p>
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
