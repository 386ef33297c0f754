import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { Form, Link } from '@remix-run/react';
import { GeneralErrorBoundary } from '~/components/error-page';
import { SubmitButton } from '~/components/ui/submit-button';
import { requireSameOrigin } from '~/utils/security.server';
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
  requireSameOrigin(request);
  return logout(request);
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
