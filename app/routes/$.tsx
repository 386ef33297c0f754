import { type MetaFunction, data } from '@remix-run/node';
import { GeneralErrorBoundary } from '~/components/error-page';

export const meta: MetaFunction = () => [
  { title: 'Page not found | Custom Room' },
  { name: 'description', content: 'This page does not exist.' },
];

/** Any URL no route claims: a real 404 with the site around it. */
export async function loader() {
  throw data({ message: 'We could not find that page. It may have moved or never existed.' }, { status: 404 });
}

export default function NotFound() {
  return null;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
