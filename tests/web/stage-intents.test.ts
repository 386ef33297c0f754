import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookieOf, startGatewayStub, unwrap, useStubEnv, type GatewayStub } from './support/gateway-stub';

/** Decision 061: the stage control room's action is a table of handlers, one per form intent. */

let stub: GatewayStub;
let stagePage: typeof import('~/routes/admin.$tournamentId.stages.$stageId/route');
let intents: typeof import('~/routes/admin.$tournamentId.stages.$stageId/intents.server');
let state: typeof import('~/routes/admin.$tournamentId.stages.$stageId/intent-state');
let session: typeof import('~/utils/session.server');

beforeAll(async () => {
  stub = await startGatewayStub();
  await useStubEnv(stub);
  stagePage = await import('~/routes/admin.$tournamentId.stages.$stageId/route');
  intents = await import('~/routes/admin.$tournamentId.stages.$stageId/intents.server');
  state = await import('~/routes/admin.$tournamentId.stages.$stageId/intent-state');
  session = await import('~/utils/session.server');
});
afterAll(() => stub.close());

async function adminPost(fields: [string, string][]) {
  const token = await stub.token({ username: 'organiser', roles: ['ROLE_USER', 'ROLE_ADMIN'] });
  const cookie = cookieOf(await session.createUserSession(new Request('http://localhost/login'), token, 'x', '/'));
  const url = 'http://localhost/admin/5/stages/7';
  const request = new Request(url, {
    method: 'POST',
    body: new URLSearchParams(fields),
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost', 'sec-fetch-site': 'same-origin', cookie },
  });
  return stagePage.action({ request, params: { tournamentId: '5', stageId: '7' }, context: {} } as never);
}

describe('the stage intent table', () => {
  it('has one handler for every intent the forms post, and no other', () => {
    expect(Object.keys(intents.INTENT_HANDLERS).sort()).toEqual([...state.INTENTS].sort());
    for (const intent of state.INTENTS) expect(intents.intentOf(intent)).toBe(intent);
  });

  it('knows no other name, not even those every object has', () => {
    for (const name of [undefined, '', 'explode', 'Settings', 'constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      expect(intents.intentOf(name)).toBeNull();
    }
  });

  it('answers an unknown intent with a 400 "Unknown action." and calls no gateway', async () => {
    for (const name of ['explode', 'constructor', '__proto__']) {
      const before = stub.seen.length;
      const res = unwrap(await adminPost([['intent', name]]));
      expect(res).toEqual({ status: 400, body: { values: {}, fieldErrors: {}, formError: 'Unknown action.' } });
      expect(stub.seen.length).toBe(before);
    }
  });

  it("keeps the intent in a refusal's values, so only the form sent shows it", async () => {
    const res = unwrap(
      await adminPost([
        ['intent', 'invite'],
        ['teamId', 'x'],
      ]),
    );
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      values: { teamId: 'x', intent: 'invite' },
      fieldErrors: { teamId: 'Choose a team to invite.' },
      formError: null,
    });
  });
});
