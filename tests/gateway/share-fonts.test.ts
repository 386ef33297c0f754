import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { shareFontDirs, writeShareFontConfig } from '../../gateway/src/lib/share-fonts.js';

// Decision 049: the share images' fonts are set up when the gateway loads; a temp folder it cannot use
// must not stop the gateway from starting.
const roots: string[] = [];
const tmpRoot = () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'share-fonts-test-'));
  roots.push(root);
  return root;
};
afterAll(() => roots.forEach((r) => fs.rmSync(r, { recursive: true, force: true })));

describe("the share images' font configuration", () => {
  it('lists only the packaged font folders, in one folder shared by the processes of an install', () => {
    const root = tmpRoot();
    const file = writeShareFontConfig(root);
    expect(path.dirname(path.dirname(file))).toBe(root);
    expect(path.basename(path.dirname(file))).toMatch(/^custom-room-fonts-[0-9a-f]{12}$/);
    const conf = fs.readFileSync(file, 'utf8');
    const listed = [...conf.matchAll(/<dir>(.*?)<\/dir>/g)].map((m) => m[1]);
    expect(listed).toEqual(shareFontDirs());
    for (const dir of listed) expect(fs.readdirSync(dir!).some((f) => f.endsWith('.ttf'))).toBe(true);
    // A second process of the same install finds the same file.
    expect(writeShareFontConfig(root)).toBe(file);
  });

  it('when the shared folder cannot be used (a file stands there), writes one of its own instead', () => {
    const shared = path.dirname(writeShareFontConfig(tmpRoot()));
    const root = tmpRoot();
    fs.writeFileSync(path.join(root, path.basename(shared)), 'not a folder');
    const file = writeShareFontConfig(root);
    expect(path.dirname(path.dirname(file))).toBe(root);
    expect(path.basename(path.dirname(file))).toMatch(new RegExp(`^${path.basename(shared)}-\\w+$`));
    expect(fs.readFileSync(file, 'utf8')).toContain(`<dir>${shareFontDirs()[0]}</dir>`);
  });
});
