import zlib from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imageWorkStats } from '../../gateway/src/lib/images.js';
import { adminToken, createTournament, pngImage, startGateway, toForm, tournamentFields, type TestGateway } from './helpers.js';

let gw: TestGateway;
let admin: string;

beforeAll(async () => {
  gw = await startGateway();
  admin = await adminToken(gw.api);
});
afterAll(() => gw.stop());

interface Upload {
  data: Buffer;
  filename?: string;
  type?: string;
  field?: string;
}

const WRONG_TYPE = { message: 'Please upload only image files.', errors: { coverImage: 'Please upload only image files.' } };

function formWith(files: Upload[], overrides: Record<string, string> = {}) {
  return toForm(
    tournamentFields(overrides),
    files.map((f) => ({ name: f.field ?? 'coverImage', data: f.data, filename: f.filename ?? 'cover.png', type: f.type ?? 'image/png' })),
  );
}

const create = (...files: Upload[]) => gw.api.request('POST', '/tournaments/add', { token: admin, form: formWith(files) });
const update = (id: number, overrides: Record<string, string>, ...files: Upload[]) =>
  gw.api.request('PUT', `/tournaments/admin/update/${id}`, { token: admin, form: formWith(files, overrides) });

const solid = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: { r: 30, g: 120, b: 200 } } });

/** Random pixels: they do not compress, so truncating the file cuts into pixel data. */
function noise(width: number, height: number) {
  const raw = Buffer.alloc(width * height * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 2654435761) >>> 24;
  return sharp(raw, { raw: { width, height, channels: 3 } });
}

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

/** A tiny file whose header declares width × height pixels: a decompression bomb's shape. */
function pngDeclaring(width: number, height: number) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', zlib.deflateSync(Buffer.alloc(1024))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

const isWebp = (bytes: Buffer) => bytes.subarray(0, 4).toString('ascii') === 'RIFF' && bytes.subarray(8, 12).toString('ascii') === 'WEBP';

async function fetchImage(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(gw.url + url, { headers });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

async function imageRows(id: string) {
  return gw.app.store.db.selectFrom('images').select(['width', 'height', 'content_type']).where('id', '=', id).orderBy('width').execute();
}

describe('cover upload', () => {
  it('accepts a real PNG and stores it as WebP in the widths it can fill', async () => {
    const res = await create({ data: await pngImage(1600, 900) });
    expect(res.status).toBe(200);
    expect(res.body.coverImageUrl).toMatch(/^\/images\/[0-9a-f]{32}\.webp$/);
    expect(res.body).toMatchObject({ coverImageWidth: 1200, coverImageHeight: 675 });
    const id = res.body.coverImageUrl.slice('/images/'.length, -'.webp'.length);
    expect(await imageRows(id)).toEqual([
      { width: 400, height: 225, content_type: 'image/webp' },
      { width: 800, height: 450, content_type: 'image/webp' },
      { width: 1200, height: 675, content_type: 'image/webp' },
    ]);

    const largest = await fetchImage(res.body.coverImageUrl);
    expect(largest.status).toBe(200);
    expect(largest.headers.get('content-type')).toBe('image/webp');
    expect(isWebp(largest.bytes)).toBe(true);
    const meta = await sharp(largest.bytes).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 1200, height: 675 });

    for (const [width, expected] of [
      [400, 400],
      [800, 800],
      [1200, 1200],
    ]) {
      const variant = await fetchImage(`/images/${id}-${width}.webp`);
      expect(variant.status).toBe(200);
      expect(isWebp(variant.bytes)).toBe(true);
      expect((await sharp(variant.bytes).metadata()).width).toBe(expected);
    }
    expect((await gw.api.get(`/tournaments/${res.body.id}`)).body.coverImageUrl).toBe(res.body.coverImageUrl);
  });

  it('never enlarges: a small original serves its own pixels at every width', async () => {
    const res = await create({ data: await pngImage(600, 300) });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ coverImageWidth: 600, coverImageHeight: 300 });
    const id = res.body.coverImageUrl.slice(8, -5);
    expect((await imageRows(id)).map((r) => r.width)).toEqual([400, 600]);
    expect((await sharp((await fetchImage(`/images/${id}-1200.webp`)).bytes).metadata()).width).toBe(600);
    expect((await sharp((await fetchImage(`/images/${id}-800.webp`)).bytes).metadata()).width).toBe(600);
    expect((await sharp((await fetchImage(`/images/${id}-400.webp`)).bytes).metadata()).width).toBe(400);
  });

  it('judges the file by its bytes, not its name or declared type', async () => {
    const res = await create({ data: await pngImage(), filename: 'notes.txt', type: 'text/plain' });
    expect(res.status).toBe(200);
    expect(res.body.coverImageUrl).toMatch(/\.webp$/);
  });

  it('strips metadata and applies the EXIF orientation', async () => {
    const jpeg = await solid(300, 200)
      .withMetadata({ orientation: 6 })
      .withExif({ IFD0: { Copyright: 'Secret Org', Artist: 'Someone' } })
      .jpeg()
      .toBuffer();
    const source = await sharp(jpeg).metadata();
    expect(source.exif).toBeDefined();
    expect(source.orientation).toBe(6);

    const res = await create({ data: jpeg, filename: 'photo.jpg', type: 'image/jpeg' });
    expect(res.status).toBe(200);
    // Orientation 6 is a quarter turn: the stored image is upright, 200 wide and 300 tall.
    expect(res.body).toMatchObject({ coverImageWidth: 200, coverImageHeight: 300 });
    const stored = await fetchImage(res.body.coverImageUrl);
    const meta = await sharp(stored.bytes).metadata();
    expect(meta.format).toBe('webp');
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(meta.icc).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
    expect([meta.width, meta.height]).toEqual([200, 300]);
    expect(stored.bytes.includes(Buffer.from('Secret Org'))).toBe(false);
  });

  it('accepts AVIF, GIF and WebP', async () => {
    for (const [data, type] of [
      [await solid(320, 200).avif().toBuffer(), 'image/avif'],
      [await solid(320, 200).gif().toBuffer(), 'image/gif'],
      [await solid(320, 200).webp().toBuffer(), 'image/webp'],
    ] as const) {
      const res = await create({ data, type, filename: `cover.${type.split('/')[1]}` });
      expect(res.status, type).toBe(200);
      expect(res.body).toMatchObject({ coverImageWidth: 320, coverImageHeight: 200 });
      expect(isWebp((await fetchImage(res.body.coverImageUrl)).bytes)).toBe(true);
    }
  });

  it('refuses a text file posing as a PNG with 415', async () => {
    const before = (await gw.api.get('/tournaments')).body.length;
    const res = await create({ data: Buffer.from('just some text, not an image\n'.repeat(50)), filename: 'x.png', type: 'image/png' });
    expect(res.status).toBe(415);
    expect(res.body).toEqual(WRONG_TYPE);
    expect((await gw.api.get('/tournaments')).body.length).toBe(before);
  });

  it('refuses SVG and TIFF with 415', async () => {
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="800" height="400"><rect width="800" height="400" fill="red"/></svg>',
    );
    const svgRes = await create({ data: svg, filename: 'cover.svg', type: 'image/svg+xml' });
    expect(svgRes.status).toBe(415);
    expect(svgRes.body).toEqual(WRONG_TYPE);
    const tiff = await solid(400, 300).tiff().toBuffer();
    const tiffRes = await create({ data: tiff, filename: 'cover.png', type: 'image/png' });
    expect(tiffRes.status).toBe(415);
    expect(tiffRes.body).toEqual(WRONG_TYPE);
  });

  it('refuses a file over 5 MB with 413', async () => {
    const res = await create({ data: Buffer.alloc(6 * 1024 * 1024, 7) });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({
      message: 'The cover image is larger than 5 MB.',
      errors: { coverImage: 'The cover image is larger than 5 MB.' },
    });
  });

  it('refuses two files with 400', async () => {
    const png = await pngImage();
    const res = await create({ data: png }, { data: png, filename: 'second.png' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      message: 'Please upload only one cover image.',
      errors: { coverImage: 'Please upload only one cover image.' },
    });
  });

  it('refuses an image under 200×100 pixels and accepts exactly 200×100', async () => {
    const small = await create({ data: await pngImage(100, 50) });
    expect(small.status).toBe(400);
    expect(small.body).toEqual({
      message: 'The cover image is too small: at least 200×100 pixels.',
      errors: { coverImage: 'The cover image is too small: at least 200×100 pixels.' },
    });
    expect((await create({ data: await pngImage(199, 400) })).status).toBe(400);
    expect((await create({ data: await pngImage(400, 99) })).status).toBe(400);
    const exact = await create({ data: await pngImage(200, 100) });
    expect(exact.status).toBe(200);
    expect(exact.body).toMatchObject({ coverImageWidth: 200, coverImageHeight: 100 });
  });

  it('refuses a very tall image', async () => {
    const res = await create({ data: await pngImage(200, 801) });
    expect(res.status).toBe(400);
    expect(res.body.errors.coverImage).toMatch(/too tall/);
  });

  it('refuses a decompression bomb by its declared pixels, without decoding it', async () => {
    const bomb = pngDeclaring(10_000, 10_000);
    expect(bomb.length).toBeLessThan(2000);
    const res = await create({ data: bomb });
    expect(res.status).toBe(400);
    expect(res.body.errors.coverImage).toMatch(/too many pixels/);
  });

  it('answers 400, not 500, for a damaged image', async () => {
    const full = await noise(400, 300).png({ compressionLevel: 0 }).toBuffer();
    const res = await create({ data: full.subarray(0, Math.floor(full.length * 0.6)) });
    expect(res.status).toBe(400);
    expect(res.body.errors.coverImage).toMatch(/could not be read/);
  });

  it('treats an empty, nameless file part (no file chosen in a browser form) as no cover', async () => {
    const res = await create({ data: Buffer.alloc(0), filename: '', type: 'application/octet-stream' });
    expect(res.status).toBe(200);
    expect(res.body.coverImageUrl).toBeNull();
  });

  it('shares rows between identical uploads', async () => {
    const png = await pngImage(900, 500);
    const a = await create({ data: png });
    const b = await create({ data: png, filename: 'again.png' });
    expect(a.body.coverImageUrl).toBe(b.body.coverImageUrl);
    expect(a.body.id).not.toBe(b.body.id);
    expect((await imageRows(a.body.coverImageUrl.slice(8, -5))).map((r) => r.width)).toEqual([400, 800, 900]);
  });
});

describe('cover on update', () => {
  it('keeps the old cover when none is sent and replaces it when one is', async () => {
    const created = await create({ data: await pngImage(800, 450) });
    const id = created.body.id;
    const kept = await update(id, { name: 'Renamed, same cover' });
    expect(kept.status).toBe(200);
    expect(kept.body).toMatchObject({
      name: 'Renamed, same cover',
      coverImageUrl: created.body.coverImageUrl,
      coverImageWidth: 800,
      coverImageHeight: 450,
    });

    const replaced = await update(id, {}, { data: await solid(1000, 500).jpeg().toBuffer(), type: 'image/jpeg', filename: 'new.jpg' });
    expect(replaced.status).toBe(200);
    expect(replaced.body.coverImageUrl).toMatch(/^\/images\/[0-9a-f]{32}\.webp$/);
    expect(replaced.body.coverImageUrl).not.toBe(created.body.coverImageUrl);
    expect(replaced.body).toMatchObject({ coverImageWidth: 1000, coverImageHeight: 500 });
    expect((await gw.api.get(`/tournaments/${id}`)).body.coverImageUrl).toBe(replaced.body.coverImageUrl);
  });

  it('refuses a bad cover on update and keeps the tournament unchanged', async () => {
    const t = await createTournament(gw.api, admin);
    const res = await update(t.id, { name: 'Should not stick' }, { data: Buffer.from('<svg/>'), type: 'image/svg+xml', filename: 'x.svg' });
    expect(res.status).toBe(415);
    expect((await gw.api.get(`/tournaments/${t.id}`)).body.name).toBe(t.name);
  });
});

describe('GET /images/{imageId}.webp', () => {
  let url: string;
  let id: string;
  beforeAll(async () => {
    const res = await create({ data: await pngImage(1300, 700) });
    url = res.body.coverImageUrl;
    id = url.slice(8, -5);
  });

  it('sends long-lived cache headers and an ETag, and 304 when it matches', async () => {
    const first = await fetchImage(url);
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^".+"$/);

    for (const ifNoneMatch of [etag!, `W/${etag}`, `"other", ${etag}`, '*']) {
      const again = await fetchImage(url, { 'if-none-match': ifNoneMatch });
      expect(again.status, ifNoneMatch).toBe(304);
      expect(again.bytes.length).toBe(0);
      expect(again.headers.get('etag')).toBe(etag);
      expect(again.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    }
    expect((await fetchImage(url, { 'if-none-match': '"something-else"' })).status).toBe(200);
  });

  it('gives each width its own ETag', async () => {
    const small = await fetchImage(`/images/${id}-400.webp`);
    const large = await fetchImage(`/images/${id}-1200.webp`);
    expect(small.headers.get('etag')).not.toBe(large.headers.get('etag'));
    expect((await fetchImage(`/images/${id}-400.webp`, { 'if-none-match': large.headers.get('etag')! })).status).toBe(200);
    expect((await fetchImage(`/images/${id}-1200.webp`, { 'if-none-match': large.headers.get('etag')! })).status).toBe(304);
  });

  it('answers 404 JSON for an unknown image and 400 for junk, never 500', async () => {
    const unknown = await gw.api.get(`/images/${'ab'.repeat(16)}.webp`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: 'Image not found.' });
    expect((await gw.api.get(`/images/${'ab'.repeat(16)}-800.webp`)).status).toBe(404);
    for (const junk of ['not-hex!.webp', 'ZZZZZZZZZZ.webp', `${id}-600.webp`, `${id}-.webp`, '.webp', `${id}-400-400.webp`]) {
      const res = await gw.api.get(`/images/${encodeURIComponent(junk).replace(/%2E/g, '.')}`);
      expect([400, 404], junk).toContain(res.status);
      expect(res.body.message, junk).toBeTruthy();
    }
    expect((await gw.api.get(`/images/${id}.png`)).status).toBe(404);
  });

  it('serves the largest cover as JPEG for link previews, with its own ETag', async () => {
    const jpeg = await fetchImage(`/images/${id}.jpg`);
    expect(jpeg.status).toBe(200);
    expect(jpeg.headers.get('content-type')).toBe('image/jpeg');
    expect([...jpeg.bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    expect(jpeg.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(jpeg.headers.get('etag')).not.toBe((await fetchImage(url)).headers.get('etag'));
    expect((await fetchImage(`/images/${id}.jpg`, { 'if-none-match': jpeg.headers.get('etag')! })).status).toBe(304);
    expect((await gw.api.get(`/images/${'ab'.repeat(16)}.jpg`)).status).toBe(404);
  });

  it('is public: no token needed', async () => {
    const res = await fetch(gw.url + url);
    expect(res.status).toBe(200);
  });
});

describe('GET /images/{imageId}.jpg: made once, kept, and made one at a time (decision 032)', () => {
  /** A cover uploaded now, and its id. */
  async function uploaded(seed: number) {
    const data = await sharp({ create: { width: 1000 + seed, height: 560, channels: 3, background: { r: seed % 256, g: 90, b: 160 } } })
      .png()
      .toBuffer();
    const res = await create({ data });
    expect(res.status).toBe(200);
    return res.body.coverImageUrl.slice(8, -5) as string;
  }
  const jpegRow = (id: string) =>
    gw.app.store.db.selectFrom('image_jpegs').select(['id', 'width', 'height', 'data']).where('id', '=', id).executeTakeFirst();
  /** As for a cover stored before its JPEG was made at upload. */
  const forgetJpeg = (id: string) => gw.app.store.db.deleteFrom('image_jpegs').where('id', '=', id).execute();
  const bytesOf = (data: Buffer | Uint8Array) => Buffer.from(data);

  it('stores the JPEG at upload and serves the stored bytes, without encoding on request', async () => {
    const id = await uploaded(1);
    const row = await jpegRow(id);
    expect(row).toMatchObject({ id, width: 1001, height: 560 });
    expect([...bytesOf(row!.data).subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);

    const encodes = imageWorkStats.jpegEncodes;
    const first = await fetchImage(`/images/${id}.jpg`);
    expect(first.status).toBe(200);
    expect(first.bytes.equals(bytesOf(row!.data))).toBe(true);
    expect(first.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(first.headers.get('etag')).toBe(`"${id}-1001-jpg"`);

    // What is served is the stored row itself: change it and the answer changes with it.
    const marker = await solid(300, 200).jpeg().toBuffer();
    await gw.app.store.db.updateTable('image_jpegs').set({ data: marker }).where('id', '=', id).execute();
    expect((await fetchImage(`/images/${id}.jpg`)).bytes.equals(marker)).toBe(true);
    expect(imageWorkStats.jpegEncodes).toBe(encodes);
  });

  it('makes the JPEG of an older cover once, on its first request: concurrent first requests share it, and so does another process', async () => {
    const id = await uploaded(2);
    await forgetJpeg(id);
    const encodes = imageWorkStats.jpegEncodes;
    const answers = await Promise.all(Array.from({ length: 20 }, () => fetchImage(`/images/${id}.jpg`)));
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    expect(imageWorkStats.jpegEncodes - encodes).toBe(1);
    expect((await gw.api.get(`/images/${'cd'.repeat(16)}.jpg`)).status).toBe(404); // nothing to make
    expect(imageWorkStats.jpegEncodes - encodes).toBe(1);
    const row = await jpegRow(id);
    expect(row).toMatchObject({ id, width: 1002, height: 560 });
    for (const a of answers) expect(a.bytes.equals(bytesOf(row!.data))).toBe(true);
    expect((await sharp(answers[0]!.bytes).metadata()).format).toBe('jpeg');

    const other = await gw.start();
    try {
      const res = await fetch(`${other.url}/images/${id}.jpg`);
      expect(res.status).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(bytesOf(row!.data))).toBe(true);
      expect(imageWorkStats.jpegEncodes - encodes).toBe(1);
    } finally {
      await other.stop();
    }
  });

  it('runs image work one job at a time, on one libvips thread', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push(await uploaded(10 + i));
    for (const id of ids) await forgetJpeg(id);
    const encodes = imageWorkStats.jpegEncodes;
    imageWorkStats.peak = 0;
    const answers = await Promise.all([
      ...ids.map((id) => fetchImage(`/images/${id}.jpg`)),
      create({ data: await pngImage(1200, 700) }), // an upload waits its turn too
    ]);
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    expect(imageWorkStats.jpegEncodes - encodes).toBe(ids.length);
    expect(imageWorkStats.peak).toBe(1);
    expect(sharp.concurrency()).toBe(1);
  });
});

describe('OpenAPI', () => {
  it('documents both image routes with a binary WebP answer', async () => {
    const doc = (await gw.api.get('/openapi.json')).body;
    for (const path of ['/images/{imageId}.webp', '/images/{imageId}-{width}.webp']) {
      const op = doc.paths[path]?.get;
      expect(op, path).toBeDefined();
      expect(op.responses['200'].content['image/webp'].schema).toEqual({ type: 'string', format: 'binary' });
      expect(op.responses['304']).toBeDefined();
    }
  });
});
