import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { SCREENSHOT_MESSAGES } from '@custom-room/contract';
import { HttpError } from '../../gateway/src/lib/errors.js';
import {
  hashBands,
  hashDistance,
  hashDistanceWithin,
  readScreenshot,
  SAME_SCREENSHOT_DISTANCE,
  SCREENSHOT_MAX_WIDTH,
} from '../../gateway/src/lib/screenshots.js';
import { resultScreen, resultSpec } from '../support/screenshot-fixtures.js';
import {
  buildSet,
  formatSummary,
  measurePairs,
  MUST_CATCH,
  readScreenshotCpu,
  summarise,
  type Pair,
  type Shot,
} from '../support/screenshot-set.js';

// Decision 072. The duplicate-screenshot check on a test set of generated result screens, and
// readScreenshot's checks. By default 4 matches on 2 maps, 3 teams each, every screen with its 10
// variants, half of them paired with the other teams (about 15 s); `npm run bench:screenshots` runs the
// same assertions on a larger set (SCREENSHOT_SET_* below) and prints the same summary.
const env = (name: string, fallback: number) => Number(process.env[`SCREENSHOT_SET_${name}`] ?? fallback);

describe('the duplicate-screenshot check', () => {
  let pairs: Pair[];
  let shots: Shot[];
  beforeAll(async () => {
    shots = await buildSet(env('MATCHES', 4), env('TEAMS', 3));
    pairs = measurePairs(shots, env('THIN', 2));
    console.info(formatSummary(summarise(pairs, await readScreenshotCpu(env('READS', 2)))));
  }, 600_000);

  const of = (test: (p: Pair) => boolean) => pairs.filter(test);
  const caught = (p: Pair) => p.distance <= SAME_SCREENSHOT_DISTANCE;

  it('catches every variant of a screenshot: re-encoded, resized, cropped, brighter or darker, a status bar more or less', () => {
    const copies = of((p) => MUST_CATCH.includes(p.kind));
    expect(copies.length).toBeGreaterThanOrEqual(200);
    expect(copies.filter((p) => !caught(p)).map((p) => `${p.kind}: ${p.variant} (${p.distance})`)).toEqual([]);
    // With room to spare: the farthest copy stays well inside the threshold.
    expect(Math.max(...copies.map((p) => p.distance))).toBeLessThanOrEqual(SAME_SCREENSHOT_DISTANCE * 0.9);
  });

  it('flags no two teams of one match, nor a team’s two results on one map, nor other matches', () => {
    const different = of((p) => !MUST_CATCH.includes(p.kind));
    expect(different.length).toBeGreaterThanOrEqual(200);
    for (const kind of [
      'two teams of one match',
      'a variant and another team of its match',
      'one team, two matches on one map',
      'other matches',
    ]) {
      expect(different.some((p) => p.kind === kind)).toBe(true);
    }
    expect(different.filter(caught).map((p) => `${p.kind}: ${p.variant ?? ''} (${p.distance})`)).toEqual([]);
    expect(Math.min(...different.map((p) => p.distance))).toBeGreaterThanOrEqual(SAME_SCREENSHOT_DISTANCE * 1.1);
  });

  it('gives every caught pair a key in common, short strings (the lead looks candidates up by them)', () => {
    expect(of(caught).every((p) => p.sharesKey)).toBe(true);
    const keys = hashBands(shots[0]!.hash);
    expect(keys.length).toBeGreaterThan(1);
    expect(new Set(keys).size).toBe(keys.length);
    for (const key of keys) expect(key).toMatch(/^[0-9a-z]{1,2}\.[0-9a-z]{1,2}$/);
  });

  it('the look-alike check (hashDistanceWithin, stopping past its limit) decides every pair as hashDistance does', () => {
    // Decision 079: the same distance when within the limit, above the limit when not, at the threshold and around it.
    const limits = [SAME_SCREENSHOT_DISTANCE, 0, 20, 40, 60, 80];
    const wrong = pairs.flatMap((p) =>
      limits.flatMap((limit) => {
        const within = hashDistanceWithin(...p.hashes, limit);
        const right = p.distance <= limit ? within === p.distance : within > limit;
        return right ? [] : [`${p.kind} ${p.variant ?? ''}: ${p.distance} vs ${within} at ${limit}`];
      }),
    );
    expect(wrong).toEqual([]);
    // The test set has pairs on both sides of each limit but 0 (else the check above proves little).
    for (const limit of limits.filter((l) => l > 0)) {
      expect(pairs.some((p) => p.distance <= limit) && pairs.some((p) => p.distance > limit && p.distance < 1000)).toBe(true);
    }
  });

  it('puts a picture at distance 0 from itself, and tells pictures apart whichever comes first', () => {
    const [a, b] = [shots[0]!, shots[1]!];
    expect(hashDistance(a.hash, a.hash)).toBe(0);
    expect(hashDistance(a.variants[0]!.hash, a.hash)).toBeLessThanOrEqual(SAME_SCREENSHOT_DISTANCE);
    expect(hashDistance(b.hash, a.hash)).toBeGreaterThan(SAME_SCREENSHOT_DISTANCE);
  });
});

const screens = new Map<number, Promise<Buffer>>();
/** A 2400×1080 result screen as the phone saved it (drawn once). */
function phoneScreen(seed = 1): Promise<Buffer> {
  if (!screens.has(seed)) {
    screens.set(
      seed,
      resultScreen(resultSpec({ map: seed, match: seed, teamSeed: seed, slot: 0, seed, size: [2400, 1080] })).then((s) => s.png),
    );
  }
  return screens.get(seed)!;
}

async function refusal(input: Promise<unknown>): Promise<HttpError> {
  const err = await input.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(HttpError);
  return err as HttpError;
}

describe('readScreenshot', () => {
  it('stores a JPEG at most 1600 px wide, named by its bytes: the same upload twice has one id', async () => {
    const png = await phoneScreen();
    const [first, again, other] = [await readScreenshot(png), await readScreenshot(png), await readScreenshot(await phoneScreen(2))];
    expect(first).toMatchObject({ contentType: 'image/jpeg', width: SCREENSHOT_MAX_WIDTH, height: 720 });
    expect(first.id).toMatch(/^[0-9a-f]{32}$/);
    expect(again.id).toBe(first.id);
    expect(again.hash).toBe(first.hash);
    expect(other.id).not.toBe(first.id);
    const meta = await sharp(first.data).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 1600, height: 720 });
  });

  it('drops every metadata: EXIF (the camera, the place), XMP and the colour profile', async () => {
    const jpeg = await sharp(await phoneScreen())
      .withExif({
        IFD0: { Copyright: 'secret-owner', Make: 'PhoneMaker', Model: 'Model-X1' },
        IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '28/1 36/1 5000/100', GPSLongitudeRef: 'E', GPSLongitude: '77/1 12/1 3000/100' },
      })
      .withIccProfile('p3')
      .withXmp(
        '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description>xmp-secret</rdf:Description></rdf:RDF></x:xmpmeta>',
      )
      .jpeg()
      .toBuffer();
    const before = await sharp(jpeg).metadata();
    expect(before.exif).toBeDefined(); // the test's input really carries them
    expect(before.icc).toBeDefined();
    expect(before.xmp).toBeDefined();
    expect(jpeg.includes('secret-owner')).toBe(true);

    const { data } = await readScreenshot(jpeg);
    const after = await sharp(data).metadata();
    expect(after.exif).toBeUndefined();
    expect(after.icc).toBeUndefined();
    expect(after.xmp).toBeUndefined();
    for (const text of ['secret-owner', 'PhoneMaker', 'Model-X1', 'xmp-secret', 'Exif', 'GPS']) expect(data.includes(text)).toBe(false);
  });

  it('turns the picture by its EXIF orientation', async () => {
    // Left half red, right half blue; orientation 6: shown turned a quarter clockwise, so red on top.
    const halves = await sharp({ create: { width: 800, height: 400, channels: 3, background: '#0000ff' } })
      .composite([{ input: { create: { width: 400, height: 400, channels: 3, background: '#ff0000' } }, left: 0, top: 0 }])
      .withMetadata({ orientation: 6 })
      .jpeg()
      .toBuffer();
    const shot = await readScreenshot(halves);
    expect([shot.width, shot.height]).toEqual([400, 800]);
    const { data } = await sharp(shot.data)
      .extract({ left: 200, top: 100, width: 1, height: 1 })
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(data[0]).toBeGreaterThan(200); // red
    expect(data[2]).toBeLessThan(60);
  });

  it('refuses a GIF, a text file and a broken file, naming the screenshot field', async () => {
    const gif = await sharp(await phoneScreen())
      .gif()
      .toBuffer();
    const truncated = (
      await sharp(await phoneScreen())
        .jpeg()
        .toBuffer()
    ).subarray(0, 5000);
    for (const input of [gif, Buffer.from('these are not the results you are looking for\n'), truncated]) {
      const err = await refusal(readScreenshot(input));
      expect(err.statusCode).toBe(400);
      expect(err.message).toBe(SCREENSHOT_MESSAGES.unreadable);
      expect(err.errors).toEqual({ screenshot: SCREENSHOT_MESSAGES.unreadable });
    }
  });

  it('refuses a picture too small to read', async () => {
    const tiny = await sharp({ create: { width: 320, height: 144, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    const err = await refusal(readScreenshot(tiny));
    expect(err.statusCode).toBe(400);
    expect(err.errors).toEqual({ screenshot: SCREENSHOT_MESSAGES.tooSmall });
  });
});
