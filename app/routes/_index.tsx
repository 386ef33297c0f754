import type { MetaFunction } from '@remix-run/node';

export const meta: MetaFunction = () => [{ title: 'Custom Room' }];

export default function Index() {
  return <h1>Custom Room</h1>;
}
