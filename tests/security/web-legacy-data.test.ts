import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayApi, Stack, errorLines, logSince, logSize, webLogin } from './web-helpers';

// Issue 27, item 19 (decision 054): GET /my-tournaments/{id}/info?_data=routes/my-tournaments.$tournamentId.info,
// signed in, answered 500 and logged a RangeError stack ("init.status must be in the range of 200 to 599") every
// time: Remix's old data protocol sent the loader's data on as a Response, whose `status` (the tournament's,
// "upcoming") is no HTTP status. The site speaks single fetch only: ?_data= is a client's bad request, 400.

let stack: Stack;
let api: GatewayApi;

beforeAll(async () => {
  stack = await Stack.start({ label: 'web-legacy-data' });
  api = new GatewayApi(stack.info);
}, 90_000);
afterAll(() => stack?.stop());

/** The log from `from` on, once the answer to `marker` is in it (lines are written as answers finish). */
async function logUntil(from: number, marker: string) {
  for (let i = 0; i < 200; i++) {
    const log = logSince(stack.info.webLog, from);
    if (log.includes(marker)) return log;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`the web log never showed ${marker}`);
}

describe('legacy ?_data= requests', () => {
  it('a player’s own tournament info with ?_data= is a 400 page, a warning line and no error, signed in or not, GET or POST', async () => {
    const t = await api.createTournament({ entryFee: '0' });
    const player = await api.createPlayer();
    await api.registerTeam(t.id, player);
    const { cookie } = await webLogin(stack.info.webUrl, player.email, player.password);
    const web = stack.info.webUrl;
    const from = logSize(stack.info.webLog);

    const urls = [
      `/my-tournaments/${t.id}/info?_data=routes/my-tournaments.$tournamentId.info`,
      `/my-tournaments/${t.id}/info?_data=${encodeURIComponent('routes/my-tournaments.$tournamentId.info')}`,
      `/my-tournaments/${t.id}/info?_data=root`,
      `/tournaments/${t.id}?x=1&_data=routes/tournaments.$tournamentId`,
      `/my-tournaments?_data=`,
    ];
    for (const url of urls) {
      for (const who of [cookie, undefined]) {
        for (const method of ['GET', 'POST']) {
          const res = await fetch(web + url, {
            method,
            redirect: 'manual',
            headers: { origin: web, 'content-type': 'application/x-www-form-urlencoded', ...(who ? { cookie: who } : {}) },
            body: method === 'POST' ? 'a=1' : undefined,
          });
          const body = await res.text();
          const where = `${method} ${url} ${who ? 'signed in' : 'signed out'}`;
          expect(res.status, where).toBe(400);
          expect(res.headers.get('content-type'), where).toMatch(/^text\/html/);
          expect(body, where).toContain('Bad request');
        }
      }
    }
    // The page itself still answers.
    const page = await fetch(`${web}/my-tournaments/${t.id}/info`, { headers: { cookie }, redirect: 'manual' });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(t.name);

    const log = await logUntil(from, `/my-tournaments/${t.id}/info"`);
    expect(errorLines(log)).toEqual([]);
    expect(log).not.toContain('RangeError');
    expect(log.split('\n').filter((l) => l.includes('legacy ?_data request'))).toHaveLength(urls.length * 4);
  });
});
