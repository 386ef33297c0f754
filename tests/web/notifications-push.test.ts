import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStorage, createUser, startGateway, type TestGateway, type TestUser } from '../gateway/helpers';
import { formPost, sessionCookie, unwrap, useGatewayEnv } from './support/gateway-stub';

// Issue 27, item 13 (decision 054): the notifications page's push actions over a real gateway. An endpoint
// another account holds is "taken" (409), so the page asks the browser for a new subscription; an unsubscribe
// that removed nothing is not "off".
let gw: TestGateway;
let owner: TestUser;
let other: TestUser;
let page: typeof import('~/routes/notifications');

beforeAll(async () => {
  gw = await startGateway({}, await createStorage());
  [owner, other] = [await createUser(gw.api), await createUser(gw.api)];
  await useGatewayEnv(gw.url);
  page = await import('~/routes/notifications');
});
afterAll(() => gw?.stop());

const subscription = () => ({
  endpoint: `https://fcm.googleapis.com/fcm/send/${crypto.randomBytes(12).toString('hex')}`,
  keys: { p256dh: crypto.randomBytes(65).toString('base64url'), auth: crypto.randomBytes(16).toString('base64url') },
});

async function post(user: TestUser, fields: Record<string, string>) {
  const request = formPost('http://localhost/notifications', fields, { cookie: await sessionCookie(user) });
  return unwrap(await page.action({ request, params: {}, context: {} }));
}

describe('push on and off from the notifications page', () => {
  it('on: ok for a new phone; "taken" (409) for another account’s; off: only when something was removed', async () => {
    const sub = subscription();
    const on = { intent: 'push-subscribe', subscription: JSON.stringify(sub) };
    expect(await post(owner, on)).toEqual({ status: 200, body: { push: 'on' } });
    expect(await post(other, on)).toEqual({ status: 409, body: { push: 'taken' } });
    // The other account's "off" removes nothing of the owner's: an error, not "off".
    expect(await post(other, { intent: 'push-unsubscribe', endpoint: sub.endpoint })).toEqual({ status: 404, body: { push: 'error' } });
    expect(await post(owner, { intent: 'push-unsubscribe', endpoint: sub.endpoint })).toEqual({ status: 200, body: { push: 'off' } });
  });
});
