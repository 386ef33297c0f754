import crypto from 'node:crypto';
import type { TeamField } from '@custom-room/contract/constants';
import type {
  MatchBody,
  Match,
  PointsBody,
  PointsRow,
  Registration,
  RegisterBody,
  TeamBody,
  TournamentFields,
  TournamentJson,
} from './schemas';

/**
 * Test data builders (decision 037): valid data of each kind the gateway takes or answers, typed from
 * its schemas (tests/support/schemas.ts), each unique where the gateway wants uniqueness. A test
 * passes overrides for what it is about. Used by the gateway, security, web and e2e suites.
 */

let counter = 0;
/** A unique suffix for names, emails and IGNs: letters and digits only, unique across processes of one run. */
export function unique(): string {
  counter += 1;
  return `${process.pid % 1000}${counter}${crypto.randomBytes(2).toString('hex')}`;
}

/** A fresh valid 10-digit Indian mobile number. */
export function uniquePhone(): string {
  return '9' + String(crypto.randomInt(0, 1_000_000_000)).padStart(9, '0');
}

/** A fresh 12-digit UTR: one UTR pays for one registration (decision 029). */
export function uniqueUtr(): string {
  return `${crypto.randomInt(1, 10)}${String(crypto.randomInt(0, 10 ** 11)).padStart(11, '0')}`;
}

/** An ISO date-time this many days (and hours) from now. */
export function isoIn(days: number, hours = 0): string {
  return new Date(Date.now() + days * 86_400_000 + hours * 3_600_000).toISOString();
}

// ---- what the gateway takes ----

/** A new account (POST /api/auth/register). */
export function playerAccount(
  overrides: Partial<RegisterBody> = {},
): RegisterBody & { password: string; email: string; phone: string; username: string } {
  const u = unique();
  return {
    email: `player${u}@test.example`,
    phone: uniquePhone(),
    username: `player_${u}`.slice(0, 20),
    password: 'correct horse battery',
    ...overrides,
  } as RegisterBody & { password: string; email: string; phone: string; username: string };
}

/** Valid tournament fields (multipart text, as the admin form sends them), registration open now, start in 10 days. */
export function tournamentFields(
  overrides: Partial<TournamentFields> & Record<string, string> = {},
): TournamentFields & Record<string, string> {
  return {
    name: `Cup ${unique()}`,
    game: 'BGMI',
    description: 'A squad tournament for testing.',
    startDate: isoIn(10),
    endDate: isoIn(12),
    registrationOpen: isoIn(-1),
    registrationClose: isoIn(9),
    maxTeams: '16',
    format: 'Squad',
    platform: 'Mobile',
    entryFee: '100',
    prizePool: '₹10,000',
    status: 'Registration Ongoing',
    overview: 'Three days of Erangel and Miramar.',
    ...overrides,
  } as TournamentFields & Record<string, string>;
}

/** A multipart body of text fields and files, as a browser's form sends it (the admin tournament form, uploads). */
export function toForm(
  fields: Record<string, string>,
  files: { name: string; data: Buffer; filename: string; type: string }[] = [],
): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const f of files) form.append(f.name, new Blob([new Uint8Array(f.data)], { type: f.type }), f.filename);
  return form;
}

/** A valid team of four (POST /registrations/{tid}); IGNs are unique per call; no character IDs unless overridden. */
export function teamFields(
  overrides: Partial<Record<keyof TeamBody, string>> = {},
): Record<TeamField, string> & Partial<Record<keyof TeamBody, string>> {
  const u = unique();
  return {
    teamName: `Team ${u}`,
    player1Username: `p1_${u}`,
    player2Username: `p2_${u}`,
    player3Username: `p3_${u}`,
    player4Username: `p4_${u}`,
    substitute1Username: '',
    substitute2Username: '',
    ...overrides,
  };
}

/** A valid match (POST /matches): day 1, match 1 of tournament tid, with room ID and password. */
export function matchFields<O extends Partial<Record<keyof MatchBody, unknown>>>(
  tid: number,
  overrides: O = {} as O,
): Omit<MatchBody, keyof O> & O {
  return {
    tid,
    day: 1,
    matchNo: 1,
    map: 'Erangel',
    matchId: '7654321',
    password: 'sq9x',
    time: '18:30',
    ...overrides,
  } as Omit<MatchBody, keyof O> & O;
}

/** One team's result in one match (POST /tournaments/{id}/points-table); totalPoints 0: the gateway computes it. */
export function pointsEntry(entry: {
  day?: number;
  match?: number;
  teamId: number;
  teamName?: string;
  position: number;
  wins?: number;
  finishes: number;
}): PointsBody {
  return {
    day: entry.day ?? 1,
    match: entry.match ?? 1,
    teamId: entry.teamId,
    teamName: entry.teamName ?? '',
    position: entry.position,
    wins: entry.wins ?? (entry.position === 1 ? 1 : 0),
    finishes: entry.finishes,
    totalPoints: 0,
  };
}

// ---- what the gateway answers (for the web suite's stand-in gateway) ----

/** A tournament as GET /tournaments/{id} answers it. */
export function tournamentJson(overrides: Partial<TournamentJson> = {}): TournamentJson {
  return {
    id: 42,
    name: 'Monsoon Cup',
    game: 'BGMI',
    description: 'Squad tournament',
    startDate: '2030-03-05T13:00:00.000Z',
    endDate: '2030-03-07T17:30:00.000Z',
    // Open now (issue 27: a "Registration Ongoing" tournament is open only between its dates).
    registrationOpen: '2026-01-01T04:30:00.000Z',
    registrationClose: '2030-03-04T16:00:00.000Z',
    maxTeams: 16,
    format: 'Squad',
    platform: 'Mobile',
    entryFee: 150,
    prizePool: '₹25,000',
    coverImageUrl: null,
    coverImageWidth: null,
    coverImageHeight: null,
    status: 'Registration Ongoing',
    overview: 'Erangel and Miramar, 3 days.',
    pointsSystem: 'bmps-15',
    requireCharacterIds: false,
    registeredTeams: 3,
    createdAt: '2030-01-01T00:00:00.000Z',
    updatedAt: '2030-01-01T00:00:00.000Z',
    ...overrides,
  };
}

/** A team as the registration calls answer it. */
export function registrationJson(overrides: Partial<Registration> = {}): Registration {
  return {
    rid: 42,
    tid: 3,
    teamName: 'Team Soul',
    player1Username: 'Mortal',
    player2Username: 'Viper',
    player3Username: 'Regaltos',
    player4Username: 'Owais',
    substitute1Username: '',
    substitute2Username: '',
    paymentStatus: 'pending',
    paymentReference: '',
    createdAt: '2030-01-01T00:00:00.000Z',
    updatedAt: '2030-01-01T00:00:00.000Z',
    place: 'placed',
    confirmed: false,
    payBy: null,
    waitlistPosition: null,
    placedAt: '2030-01-01T00:00:00.000Z',
    releasedAt: null,
    releasedReason: null,
    ...overrides,
  };
}

/** A match as GET /matches/tournament/{tid} answers it (room details null for those who may not see them). */
export function matchJson(overrides: Partial<Match> = {}): Match {
  return { id: 1, tid: 42, day: 1, matchNo: 1, map: 'Erangel', matchId: '7654321', password: 'sq9x', time: '18:30', ...overrides };
}

/** A points table row. */
export function pointsRow(overrides: Partial<PointsRow> & Pick<PointsRow, 'rank' | 'teamName'>): PointsRow {
  return { teamId: overrides.rank, positionPoints: 10, finishes: 5, wins: 1, totalPoints: 15, matchesPlayed: 4, ...overrides };
}
