import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLogs } from '../support/logs';
import { cookieOf, json, startGatewayStub, thrown, unwrap, useStubEnv, type GatewayStub } from './support/gateway-stub';

let stub: GatewayStub;
let layout: typeof import('~/routes/profile');
let view: typeof import('~/routes/profile._index');
let session: typeof import('~/utils/session.server');

const args = (request: Request) => ({ request, params: {}, context: {} });

beforeAll(async () => {
  stub = await startGatewayStub();
  await useStubEnv(stub);
  layout = await import('~/routes/profile');
  view = await import('~/routes/profile._index');
  session = await import('~/utils/session.server');
});
afterAll(() => stub.close());

async function profileRequest() {
  const token = await stub.token({ username: 'player_one' });
  const res = await session.createUserSession(new Request('http://localhost/login'), token, 'player_one', '/');
  return { token, request: new Request('http://localhost/profile', { headers: { cookie: cookieOf(res) } }) };
}

describe('profile pages', () => {
  it('send visitors who are not signed in to /login?redirectTo=/profile', async () => {
    for (const loader of [layout.loader, view.loader]) {
      const res = (await thrown(() => loader(args(new Request('http://localhost/profile'))))) as Response;
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe('/login?redirectTo=%2Fprofile');
    }
  });

  it('load the profile with the bearer token and show the username', async () => {
    const profile = {
      fullName: 'Asha Rao',
      bio: 'IGL',
      gender: 'Female',
      dateOfBirth: '2001-03-05',
      location: 'Pune',
      profilePictureUrl: '',
    };
    stub.answer((_req, res) => json(res, 200, profile));
    const { token, request } = await profileRequest();
    expect(await layout.loader(args(request))).toBeNull();
    expect(await view.loader(args(request))).toEqual({ username: 'player_one', state: { status: 'ok', profile } });
    expect(stub.seen.at(-1)).toMatchObject({ url: '/api/profile/get' });
    expect(stub.seen.at(-1)!.headers.authorization).toBe(`Bearer ${token}`);
  });

  it('turn 404 into the "No Profile Found" state', async () => {
    stub.answer((_req, res) => json(res, 404, { message: 'No Profile Found' }));
    const { request } = await profileRequest();
    expect((await view.loader(args(request))).state).toEqual({ status: 'missing' });
  });

  it('show "Failed to fetch profile." for other refusals', async () => {
    stub.answer((_req, res) => json(res, 403, { message: 'Forbidden' }));
    const { request } = await profileRequest();
    expect((await view.loader(args(request))).state).toEqual({ status: 'failed', message: 'Failed to fetch profile.' });
  });

  it('end the session on a gateway 401', async () => {
    stub.answer((_req, res) => json(res, 401, { message: 'Unauthorized' }));
    const { request } = await profileRequest();
    const res = (await thrown(() => view.loader(args(request)))) as Response;
    expect(res.headers.get('location')).toBe('/login?redirectTo=%2Fprofile');
  });

  it('show the 503 page when the gateway cannot be reached', async () => {
    stub.answer((_req, res) => res.socket?.destroy());
    const logs = captureLogs();
    const { request } = await profileRequest();
    expect(unwrap(await thrown(() => view.loader(args(request)))).status).toBe(503);
    expect(logs).toContainEqual(expect.objectContaining({ level: 'error', msg: 'gateway unreachable' }));
  });
});
