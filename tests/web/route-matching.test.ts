// The patched route matching (patches/@remix-run+router+*.patch, decisions 086 and 089): the server loads the
// CommonJS build of @remix-run/router, where a route tree's branches are ranked once and each path's answer is
// kept, frozen, for the four times a rendered page asks for it. This holds the patch to being applied (npm
// install runs patch-package) and to answering what matching afresh answers.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

const { matchRoutes } = createRequire(import.meta.url)('@remix-run/router') as typeof import('@remix-run/router');

const tree = () => [
  {
    id: 'root',
    path: '/',
    children: [
      { id: 'list', path: 'tournaments', index: false },
      { id: 'one', path: 'tournaments/:tournamentId' },
      { id: 'rooms', path: 'tournament/:tournamentId/matches' },
      { id: 'splat', path: '*' },
    ],
  },
];
const ids = (m: ReturnType<typeof matchRoutes>) => m?.map((x) => [x.route.id, x.params, x.pathname]);

describe('route matching on the server', () => {
  it('answers a path once per route tree, the same frozen answer each time after', () => {
    const routes = tree();
    const first = matchRoutes(routes, '/tournament/7/matches');
    expect(matchRoutes(routes, { pathname: '/tournament/7/matches', search: '?x=1' })).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(first!.every((m) => Object.isFrozen(m) && Object.isFrozen(m.params))).toBe(true);
    // A caller that tried to change it is refused, not another request's answer changed.
    expect(() => {
      (first![1]!.params as Record<string, string>).tournamentId = '8';
    }).toThrow(TypeError);
    expect(ids(matchRoutes(routes, '/tournament/8/matches'))).toEqual([
      ['root', { tournamentId: '8' }, '/'],
      ['rooms', { tournamentId: '8' }, '/tournament/8/matches'],
    ]);
  });

  it('answers what matching afresh answers, for every kind of path', () => {
    const kept = tree();
    for (const path of ['/', '/tournaments', '/tournaments/12', '/tournament/3/matches', '/nowhere/at/all', '/tournaments/%20x']) {
      matchRoutes(kept, path); // kept now
      expect(ids(matchRoutes(kept, path)), path).toEqual(ids(matchRoutes(tree(), path)));
    }
    expect(matchRoutes(kept, '/x', '/base')).toBeNull(); // outside the basename
  });

  it('keeps the last 1,000 paths of a tree, so random URLs cannot grow it without end', () => {
    const routes = tree();
    const first = matchRoutes(routes, '/tournaments/0');
    expect(matchRoutes(routes, '/tournaments/0')).toBe(first);
    for (let i = 1; i <= 1000; i++) matchRoutes(routes, `/tournaments/${i}`);
    const again = matchRoutes(routes, '/tournaments/0');
    expect(again).not.toBe(first); // dropped, matched afresh
    expect(ids(again)).toEqual(ids(first));
  });
});
