import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchCalendar } from '~/utils/match-calendar.server';
import { renderMessage } from '../../gateway/src/lib/notify/messages.js';
import {
  adminToken,
  createTournament,
  createUser,
  matchFields,
  startGateway,
  teamFields,
  toForm,
  tournamentFields,
  unique,
  type TestGateway,
} from './helpers.js';

// Issue 27, item 17 (decision 054): names with line breaks. A tournament name "Cup\r\nBEGIN:VEVENT…" was stored,
// and the calendar wrote it into NAME: and X-WR-CALNAME: unescaped: an event of the attacker's in every team's file.
const INJECTED =
  'END:VCALENDAR\r\nBEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:evil@x\r\nSUMMARY:Pay ₹500 to win\r\nDTSTART:20300601T100000Z\r\nEND:VEVENT';
const BREAKS = ['\n', '\r', '\r\n', '\u2028', '\u2029', '\u0085', '\v', '\f'];

describe('single-line fields refuse line breaks', () => {
  let gw: TestGateway;
  let admin: string;

  beforeAll(async () => {
    gw = await startGateway();
    admin = await adminToken(gw.api);
  });
  afterAll(() => gw?.stop());

  it('tournament name, game, format, platform and prize pool: 400 on that field; the description keeps its lines', async () => {
    for (const field of ['name', 'game', 'format', 'platform', 'prizePool']) {
      for (const br of BREAKS) {
        const fields = tournamentFields({ [field]: `Monsoon${br}Cup` });
        const res = await gw.api.request('POST', '/tournaments/add', { token: admin, form: toForm(fields) });
        expect(res.status, `${field} ${JSON.stringify(br)}`).toBe(400);
        expect(res.body.errors?.[field], `${field} ${JSON.stringify(br)}`).toMatch(/must be on one line\.$/);
      }
    }
    const injected = await gw.api.request('POST', '/tournaments/add', {
      token: admin,
      form: toForm(tournamentFields({ name: `Cup\r\n${INJECTED}` })),
    });
    expect(injected.body.errors).toEqual({ name: 'Name must be on one line.' });
    const t = await createTournament(gw.api, admin, { description: 'Rules:\n1. Squads\n2. TPP', overview: 'Day 1\r\nDay 2' });
    // (A multipart body carries each line break as CRLF.)
    expect(t.description.split(/\r?\n/)).toEqual(['Rules:', '1. Squads', '2. TPP']);
    // An update is held to the same rule.
    const update = await gw.api.request('PUT', `/tournaments/admin/update/${t.id}`, {
      token: admin,
      form: toForm(tournamentFields({ name: `Cup\n${INJECTED}` })),
    });
    expect(update.status).toBe(400);
    expect(update.body.errors.name).toBe('Name must be on one line.');
  });

  it('stage name, map and room details, team name and IGNs, profile name and location', async () => {
    const t = await createTournament(gw.api, admin, { entryFee: '0' });
    const stage = await gw.api.post(`/tournaments/${t.id}/stages`, { name: `Finals\n${INJECTED}` }, admin);
    expect(stage.status).toBe(400);
    expect(stage.body.errors.name).toBe('Stage name must be on one line.');

    for (const field of ['map', 'matchId', 'password']) {
      const res = await gw.api.post('/matches', matchFields(t.id, { [field]: `Erangel\r\n${INJECTED}` }), admin);
      expect(res.status, field).toBe(400);
      expect(res.body.errors[field], field).toMatch(/must be on one line\.$/);
    }

    // Team names were collapsed to one line before; now refused, so the team sees why.
    const player = await createUser(gw.api);
    for (const field of ['teamName', 'player1Username', 'substitute1Username']) {
      const res = await gw.api.post(`/registrations/${t.id}`, teamFields({ [field]: `Soul\n${unique().slice(0, 6)}` }), player.token);
      expect(res.status, field).toBe(400);
      expect(res.body.errors[field], field).toMatch(/must be on one line\.$/);
    }

    const profile = await gw.api.post('/api/profile/create', { fullName: 'Asha\nRao', location: 'Pune' }, player.token);
    expect(profile.body.errors).toMatchObject({ fullName: 'Full name must be on one line.' });
    const place = await gw.api.post('/api/profile/create', { fullName: 'Asha Rao', location: 'Pune\r\nX' }, player.token);
    expect(place.body.errors).toEqual({ location: 'Location must be on one line.' });
    expect((await gw.api.post('/api/profile/create', { fullName: 'Asha Rao', bio: 'GG\nTPP only' }, player.token)).status).toBe(201);
  });
});

describe('names stored before the rule stay on their line', () => {
  const stage = { groupId: 7, groupName: `A\r\n${INJECTED}`, stageId: 3, stageName: `Qualifiers\n${INJECTED}` };
  const file = () =>
    matchCalendar({
      tournament: { id: 1, name: `Monsoon; Cup, \\ 2030\r\n${INJECTED}\u2028X-INJ:1`, game: 'BGMI', startDate: '2030-06-01T06:30:00.000Z' },
      matches: [
        { id: 11, day: 1, matchNo: 1, map: `Erangel\r\n${INJECTED}`, time: '18:00', matchId: null, password: null, ...stage },
        { id: 12, day: 1, matchNo: 2, map: 'Miramar\u0007', time: '18:40', matchId: null, password: null, ...stage },
      ],
      ownGroupIds: [7],
      timeZone: 'Asia/Kolkata',
      origin: 'https://cup.example.in',
      now: new Date('2030-05-01T00:00:00.000Z'),
    });

  it('the calendar escapes NAME and X-WR-CALNAME as every other text: the file has our two events and no more', () => {
    const text = file();
    // Every content line (unfolded) starts with a property this file writes; none of the attacker's.
    const lines = text
      .replace(/\r\n[ \t]/g, '')
      .split('\r\n')
      .filter(Boolean);
    const names = new Set(lines.map((l) => l.split(/[:;]/, 1)[0]));
    expect(names.has('X-INJ')).toBe(false);
    expect(lines.filter((l) => l === 'BEGIN:VCALENDAR')).toHaveLength(1);
    expect(lines.filter((l) => l === 'END:VCALENDAR')).toHaveLength(1);
    expect(lines.filter((l) => l === 'BEGIN:VEVENT')).toHaveLength(2);
    expect(lines.filter((l) => l.startsWith('UID:'))).toEqual(['UID:match-11@cup.example.in', 'UID:match-12@cup.example.in']);
    expect(text).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/); // eslint-disable-line no-control-regex

    const calendarName =
      'Monsoon\\; Cup\\, \\\\ 2030\\nEND:VCALENDAR\\nBEGIN:VCALENDAR\\nBEGIN:VEVENT\\nUID:evil@x\\nSUMMARY:Pay ₹500 to win\\nDTSTART:20300601T100000Z\\nEND:VEVENT\\nX-INJ:1: matches';
    expect(lines.filter((l) => l.startsWith('NAME:') || l.startsWith('X-WR-CALNAME:'))).toEqual([
      `NAME:${calendarName}`,
      `X-WR-CALNAME:${calendarName}`,
    ]);

    // A calendar app's parser reads the same two events, the names whole on their line.
    const comp = new ICAL.Component(ICAL.parse(text));
    const events = comp.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));
    expect(events.map((e) => e.uid)).toEqual(['match-11@cup.example.in', 'match-12@cup.example.in']);
    expect(events[0]!.location).toBe(`Erangel\n${INJECTED.replace(/\r\n/g, '\n')}`);
    expect(events[1]!.location).toBe('Miramar');
  });

  it('a notification (the list line, the mail, the push) is one line whatever the names hold', () => {
    const m = renderMessage(
      'stage-published',
      { stageName: `Qualifiers\r\n${INJECTED}` },
      { id: 1, name: `Monsoon Cup\n\nClick https://evil.example/pay` },
      { userId: 1, teamName: `Soul\u2028Hydra`, groupName: 'A', slot: 3 },
    );
    for (const text of [m.title, m.body]) expect(text).not.toMatch(/[\n\v\f\r\u0085\u2028\u2029]/);
    expect(m.body).toBe(
      `Soul Hydra plays in Group A, slot 3 of Qualifiers ${INJECTED.replace(/\r\n/g, ' ')}, Monsoon Cup Click https://evil.example/pay.`,
    );
  });
});
