import { lowerName, nameKeys } from '@custom-room/contract';
import { type Db, inTransaction } from './kit.js';

// Decision 033: names compare by two Unicode TR39 skeletons (lib/name-keys.ts), each unique where the
// name must be. Existing rows get theirs here, oldest first; a row whose key an older row already
// holds keeps that key marked with its own id, so the migration never fails on look-alikes already
// stored, and the older name keeps blocking new look-alikes.
export const key = '008-name-skeletons';

export async function up(db: Db): Promise<void> {
  const columns: [string, string][] = [
    ['users', 'username_key'],
    ['users', 'username_shape'],
    ['registrations', 'team_name_key'],
    ['registrations', 'team_name_shape'],
    ['registration_igns', 'ign_key'],
    ['registration_igns', 'ign_shape'],
  ];
  await inTransaction(db, async (trx) => {
    for (const [table, column] of columns) {
      await trx.schema
        .alterTable(table)
        .addColumn(column, 'text', (c) => c.notNull().defaultTo(''))
        .execute();
    }
    await fillNameKeys(trx);
    await trx.schema.createIndex('users_username_key').on('users').column('username_key').unique().execute();
    await trx.schema.createIndex('users_username_shape').on('users').column('username_shape').unique().execute();
    for (const kind of ['key', 'shape']) {
      await trx.schema
        .createIndex(`registrations_team_name_${kind}`)
        .on('registrations')
        .columns(['tournament_id', `team_name_${kind}`])
        .unique()
        .execute();
      await trx.schema
        .createIndex(`registration_igns_${kind}`)
        .on('registration_igns')
        .columns(['tournament_id', `ign_${kind}`])
        .unique()
        .execute();
    }
  });
}

/** Migration 008: fills the key columns of every user, team and IGN row (see there). */
async function fillNameKeys(db: Db) {
  /** Hands out keys within one scope (all users, or one tournament) in the order rows are passed. */
  const claims = () => {
    const held = { key: new Set<string>(), shape: new Set<string>() };
    return (name: string, tag: string) => {
      const keys = nameKeys(name);
      const claim = (kind: 'key' | 'shape') => {
        const value = held[kind].has(keys[kind]) ? `${keys[kind]}\u0001${tag}` : keys[kind];
        held[kind].add(value);
        return value;
      };
      return { key: claim('key'), shape: claim('shape') };
    };
  };

  const users = await db.selectFrom('users').select(['id', 'username']).orderBy('id').execute();
  const claimUsername = claims();
  for (const u of users) {
    const { key, shape } = claimUsername(u.username, String(u.id));
    await db.updateTable('users').set({ username_key: key, username_shape: shape }).where('id', '=', u.id).execute();
  }

  const teams = await db
    .selectFrom('registrations')
    .select([
      'id',
      'tournament_id',
      'team_name',
      'player1_username',
      'player2_username',
      'player3_username',
      'player4_username',
      'substitute1_username',
      'substitute2_username',
    ])
    .orderBy('id')
    .execute();
  const igns = await db.selectFrom('registration_igns').select(['tournament_id', 'registration_id', 'ign_lower']).execute();
  const ignsOf = new Map<number, any[]>();
  for (const row of igns) ignsOf.set(Number(row.registration_id), [...(ignsOf.get(Number(row.registration_id)) ?? []), row]);
  const teamClaims = new Map<number, ReturnType<typeof claims>>();
  const ignClaims = new Map<number, ReturnType<typeof claims>>();
  const scope = (map: Map<number, ReturnType<typeof claims>>, tid: number) => map.get(tid) ?? map.set(tid, claims()).get(tid)!;
  for (const team of teams) {
    const tid = Number(team.tournament_id);
    const { key, shape } = scope(teamClaims, tid)(team.team_name, String(team.id));
    await db.updateTable('registrations').set({ team_name_key: key, team_name_shape: shape }).where('id', '=', team.id).execute();
    // An IGN row holds only the lower-case form (decision 007's key): find the name it was made from, in form order.
    const names = [
      team.player1_username,
      team.player2_username,
      team.player3_username,
      team.player4_username,
      team.substitute1_username,
      team.substitute2_username,
    ];
    const order = (lower: string) => {
      const i = names.findIndex((n) => n !== '' && lowerName(n) === lower);
      return i < 0 ? names.length : i;
    };
    const rows = [...(ignsOf.get(Number(team.id)) ?? [])].sort((a: any, b: any) => order(a.ign_lower) - order(b.ign_lower));
    for (const row of rows as any[]) {
      const name = names[order(row.ign_lower)] ?? row.ign_lower;
      const keys = scope(ignClaims, Number(row.tournament_id))(name, `${team.id}:${row.ign_lower}`);
      await db
        .updateTable('registration_igns')
        .set({ ign_key: keys.key, ign_shape: keys.shape })
        .where('tournament_id', '=', row.tournament_id)
        .where('ign_lower', '=', row.ign_lower)
        .execute();
    }
  }
}
