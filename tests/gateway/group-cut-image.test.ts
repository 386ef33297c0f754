import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tableCardSvg, type TableCard } from '../../gateway/src/lib/share-image.js';
import { addLobbyTeams, adminToken, createTournament, startGateway, type TestGateway } from './helpers.js';

/**
 * Issue 27 item 23 (decision 056): a group's table image marks its qualifying places, the stage's top N
 * of each group, with a line below them and a note saying what it means; the medals stay. A day's table
 * and a stage where nobody advances draw no line.
 */

const ACCENT = [0xff, 0x6b, 0x2c];

/** The y of every pixel row below the heading that is the accent colour across most of the table's width. */
async function accentLines(png: Buffer): Promise<number[]> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const lines: number[] = [];
  for (let y = 280; y < info.height - 130; y++) {
    let accent = 0;
    for (let x = 0; x < info.width; x++) {
      const i = (y * info.width + x) * 3;
      if (ACCENT.every((c, k) => Math.abs(data[i + k]! - c) < 12)) accent += 1;
    }
    if (accent > info.width * 0.8) lines.push(y);
  }
  return lines;
}

describe("a group's qualifying places on its image (issue 27 item 23)", () => {
  let gw: TestGateway;
  let admin: string;
  beforeAll(async () => {
    gw = await startGateway();
    admin = await adminToken(gw.api);
  });
  afterAll(() => gw?.stop());

  it("the overall image of a group draws the cut line below the top N and says so; a day's image does not", async () => {
    const t = await createTournament(gw.api, admin, { entryFee: '0', maxTeams: '100', pointsSystem: 'bmps-15' });
    await addLobbyTeams(gw, t.id, 10);
    const stage = await gw.api.post(
      `/tournaments/${t.id}/stages`,
      { name: 'Qualifiers', lobbySize: 5, advancePerGroup: 2, advanceBest: 1 },
      admin,
    );
    expect(stage.status, JSON.stringify(stage.body)).toBe(201);
    const drawn = await gw.api.post(`/tournaments/${t.id}/stages/${stage.body.id}/groups`, { method: 'registration' }, admin);
    expect(drawn.status, JSON.stringify(drawn.body)).toBe(200);
    expect((await gw.api.post(`/tournaments/${t.id}/stages/${stage.body.id}/publish`, {}, admin)).status).toBe(200);
    const group = drawn.body.groups[0].id;

    const overall = await gw.api.get(`/tournaments/${t.id}/points-table.png?group=${group}`);
    expect(overall.status).toBe(200);
    const lines = await accentLines(overall.body as Buffer);
    expect(lines.length).toBeGreaterThanOrEqual(2); // one line, 3 px thick
    expect(lines.at(-1)! - lines[0]!).toBeLessThanOrEqual(4);

    const day = await gw.api.get(`/tournaments/${t.id}/points-table.png?group=${group}&day=1`);
    expect(day.status).toBe(200);
    expect(await accentLines(day.body as Buffer)).toEqual([]);

    // A final (nobody advances): no line on its group's image.
    const f = await createTournament(gw.api, admin, { entryFee: '0', maxTeams: '100', pointsSystem: 'bmps-15' });
    await addLobbyTeams(gw, f.id, 10);
    const final = await gw.api.post(`/tournaments/${f.id}/stages`, { name: 'Final', lobbySize: 5, advancePerGroup: 0 }, admin);
    expect(final.status, JSON.stringify(final.body)).toBe(201);
    const finalGroups = await gw.api.post(`/tournaments/${f.id}/stages/${final.body.id}/groups`, { method: 'registration' }, admin);
    expect(finalGroups.status, JSON.stringify(finalGroups.body)).toBe(200);
    expect((await gw.api.post(`/tournaments/${f.id}/stages/${final.body.id}/publish`, {}, admin)).status).toBe(200);
    const finalImage = await gw.api.get(`/tournaments/${f.id}/points-table.png?group=${finalGroups.body.groups[0].id}`);
    expect(finalImage.status).toBe(200);
    expect(await accentLines(finalImage.body as Buffer)).toEqual([]);
  });

  it('the line lies between the last qualifying row and the next, and the note is drawn above the footer', () => {
    const card: TableCard = {
      site: 'Custom Room',
      title: 'Cut',
      subtitle: 'BGMI · Qualifiers · Group A · Overall',
      columns: [
        { label: '#', align: 'center', width: 76 },
        { label: 'Team', align: 'start', width: 'fill' },
      ],
      rows: Array.from({ length: 6 }, (_, i) => ({ cells: [String(i + 1), `Squad ${i + 1}`] })),
      url: 'http://localhost:3000/x',
      more: (n) => `${n} more`,
      empty: 'none',
      cut: 4,
      note: 'Above the line: the top 4 qualify for the next stage.',
    };
    const svg = tableCardSvg(card);
    const cutLines = (svg: string) =>
      [...svg.matchAll(/<rect x="[\d.]+" y="([\d.]+)" width="[\d.]+" height="([\d.]+)" fill="#ff6b2c"\/>/g)].map((m) => [
        Number(m[1]),
        Number(m[2]),
      ]);
    const line = cutLines(svg);
    expect(line).toHaveLength(1);
    const rowBox = (name: string) => {
      const clip = svg.match(new RegExp(`clip-path="url\\(#(c\\d+)\\)">${name}<`))![1];
      const rect = svg.match(new RegExp(`<clipPath id="${clip}"><rect x="[\\d.]+" y="([\\d.]+)" width="[\\d.]+" height="([\\d.]+)"`))!;
      return { top: Number(rect[1]), bottom: Number(rect[1]) + Number(rect[2]) };
    };
    const [y, h] = line[0]!;
    const middle = y! + h! / 2;
    expect(Math.abs(middle - rowBox('Squad 4').bottom)).toBeLessThan(0.2);
    expect(Math.abs(middle - rowBox('Squad 5').top)).toBeLessThan(0.2);
    expect(svg).toContain('>Above the line: the top 4 qualify for the next stage.<');
    // No cut, no line.
    expect(cutLines(tableCardSvg({ ...card, cut: undefined, note: undefined }))).toEqual([]);
  });
});
