// Issue 10, input: polyglot and SVG covers. tests/gateway/images.test.ts covers plain wrong types
// (text, SVG, TIFF), sizes and re-encoding; these are files built to be two things at once.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken, pngImage, startGateway, toForm, tournamentFields, type TestGateway } from './helpers.js';

let gw: TestGateway;
let admin: string;
beforeAll(async () => {
  gw = await startGateway();
  admin = await adminToken(gw.api);
});
afterAll(() => gw.stop());

const WRONG_TYPE = { message: 'Please upload only image files.', errors: { coverImage: 'Please upload only image files.' } };
const HIDDEN = 'The cover image has other data after the picture. Please save it again as an image and upload that.';
const EXTRA_DATA = { message: HIDDEN, errors: { coverImage: HIDDEN } };

const SCRIPT = '<script>alert(document.domain)</script>';
const PHP = '<?php system($_GET["c"]); ?>';

function upload(data: Buffer, filename = 'cover.png', type = 'image/png') {
  const name = `Polyglot ${Math.random().toString(36).slice(2)}`;
  const form = toForm(tournamentFields({ name }), [{ name: 'coverImage', data, filename, type }]);
  return { name, res: gw.api.request('POST', '/tournaments/add', { token: admin, form }) };
}

/** Nothing of a refused upload is stored: no tournament and no image rows. */
async function expectNothingStored(name: string, imagesBefore: number) {
  const list = (await gw.api.get('/tournaments')).body as { name: string }[];
  expect(list.map((t) => t.name)).not.toContain(name);
  expect(await countImages()).toBe(imagesBefore);
}

async function countImages() {
  const row = await gw.app.store.db
    .selectFrom('images')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * A GIF that is also JavaScript: its logical screen width is the bytes "/*", so `GIF89a` reads as
 * an identifier followed by a comment that the bytes after the trailer close.
 */
async function gifJsPolyglot(): Promise<Buffer> {
  const gif = Buffer.from(
    await sharp({ create: { width: 300, height: 200, channels: 3, background: '#c0306a' } })
      .gif()
      .toBuffer(),
  );
  gif.write('/*', 6, 'latin1'); // width 0x2A2F = 10799
  gif.writeUInt16LE(200, 8);
  return Buffer.concat([gif, Buffer.from(`*/=1;${SCRIPT.replace(/<\/?script>/g, '')};//`, 'latin1')]);
}

const polyglots: [string, () => Promise<Buffer>, string, string, typeof WRONG_TYPE][] = [
  [
    'an SVG with a script, named .png',
    async () =>
      Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="400"><script>alert(1)</script><rect width="800" height="400"/></svg>`,
      ),
    'cover.png',
    'image/png',
    WRONG_TYPE,
  ],
  [
    'an SVG with an onload handler, declared as SVG',
    async () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)" width="800" height="400"/>'),
    'cover.svg',
    'image/svg+xml',
    WRONG_TYPE,
  ],
  [
    'an HTML page named .png',
    async () => Buffer.from(`<!doctype html><html><body>${SCRIPT}</body></html>`),
    'cover.png',
    'image/png',
    WRONG_TYPE,
  ],
  [
    'an HTML page behind a PNG signature',
    async () => Buffer.concat([(await pngImage()).subarray(0, 8), Buffer.from(`<html>${SCRIPT}</html>`)]),
    'cover.png',
    'image/png',
    WRONG_TYPE,
  ],
  ['a GIF/JavaScript polyglot', gifJsPolyglot, 'cover.gif', 'image/gif', EXTRA_DATA],
  ['a PNG with PHP after its end', async () => Buffer.concat([await pngImage(), Buffer.from(PHP)]), 'cover.png', 'image/png', EXTRA_DATA],
  [
    'a PNG with an HTML page after its end',
    async () => Buffer.concat([await pngImage(), Buffer.from(`<html>${SCRIPT}</html>`)]),
    'cover.png',
    'image/png',
    EXTRA_DATA,
  ],
  [
    'a PNG with a ZIP after its end',
    async () => Buffer.concat([await pngImage(), Buffer.from('PK\x03\x04\x14\x00\x00\x00payload.php', 'latin1')]),
    'cover.png',
    'image/png',
    EXTRA_DATA,
  ],
  [
    'a WebP with HTML after its RIFF body',
    async () =>
      Buffer.concat([
        await sharp(await pngImage())
          .webp()
          .toBuffer(),
        Buffer.from(`<html>${SCRIPT}</html>`),
      ]),
    'cover.webp',
    'image/webp',
    EXTRA_DATA,
  ],
];

describe('polyglot and SVG covers', () => {
  it.each(polyglots)('refuses %s, storing nothing', async (_what, make, filename, type, expected) => {
    const before = await countImages();
    const { name, res } = upload(await make(), filename, type);
    const answer = await res;
    expect(answer.status).toBe(415);
    expect(answer.body).toEqual(expected);
    await expectNothingStored(name, before);
  });

  it('accepts the same images without the payload (so each refusal above is about the payload)', async () => {
    const gif = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#c0306a' } })
      .gif()
      .toBuffer();
    for (const [data, type] of [
      [await pngImage(), 'image/png'],
      [gif, 'image/gif'],
      [
        await sharp(await pngImage())
          .webp()
          .toBuffer(),
        'image/webp',
      ],
    ] as const) {
      expect((await upload(data, 'cover', type).res).status, type).toBe(200);
    }
  });

  /** Payloads an image may carry inside itself, where honest files carry metadata, or after a JPEG's end (phones append data there). */
  it('keeps payloads inside an accepted image out of what it serves: PHP in a PNG text chunk, HTML after a JPEG', async () => {
    const pngWithText = await pngImage();
    const textChunk = pngChunk('tEXt', Buffer.from(`Comment\0${PHP}`, 'latin1'));
    const iend = pngWithText.length - 12;
    const phpPng = Buffer.concat([pngWithText.subarray(0, iend), textChunk, pngWithText.subarray(iend)]);
    const jpegWithHtml = Buffer.concat([
      await sharp(await pngImage())
        .jpeg()
        .toBuffer(),
      Buffer.from(`<html>${SCRIPT}</html>`),
    ]);

    for (const [data, type, payload] of [
      [phpPng, 'image/png', PHP],
      [jpegWithHtml, 'image/jpeg', SCRIPT],
    ] as const) {
      expect(data.includes(Buffer.from(payload))).toBe(true);
      const res = await upload(data, 'cover', type).res;
      expect(res.status, type).toBe(200);
      const id = String(res.body.coverImageUrl).slice('/images/'.length, -'.webp'.length);
      for (const path of [`/images/${id}.webp`, `/images/${id}-400.webp`, `/images/${id}-800.webp`, `/images/${id}.jpg`]) {
        const served = await fetch(gw.url + path);
        expect(served.status).toBe(200);
        expect(served.headers.get('content-type')).toMatch(/^image\/(webp|jpeg)$/);
        expect(served.headers.get('x-content-type-options')).toBe('nosniff');
        const bytes = Buffer.from(await served.arrayBuffer());
        expect(bytes.includes(Buffer.from(payload)), path).toBe(false);
        expect(bytes.includes(Buffer.from('<?php')) || bytes.includes(Buffer.from('<script')), path).toBe(false);
      }
    }
  });
});

function crc32(buf: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of buf) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}
