import { describe, expect, it } from 'vitest';
import { coverOf, coverSources, coverVariantUrl, isImageFileName, logoSrc } from '~/utils/images';

const ID = '3336d05948b5e4a4d5c3b8777a005fb3';

describe('isImageFileName', () => {
  it('accepts "<hex>.webp", the width variants (128 for logos) and the JPEG share image only', () => {
    for (const ok of [`${ID}.webp`, `${ID}-128.webp`, `${ID}-400.webp`, `${ID}-800.webp`, `${ID}-1200.webp`, `${ID}.jpg`])
      expect(isImageFileName(ok)).toBe(true);
    for (const bad of [
      `${ID}-500.webp`,
      `${ID}-64.webp`,
      `${ID}.png`,
      `${ID}-800.jpg`,
      `${ID.toUpperCase()}.webp`,
      '../etc/passwd',
      `${ID}.webp?x`,
      'abc.webp',
      `${ID}-800.webp.js`,
      '',
    ]) {
      expect(isImageFileName(bad)).toBe(false);
    }
  });
});

describe('logoSrc', () => {
  it('shows our images and https URLs, nothing else', () => {
    expect(logoSrc(`/images/${ID}-128.webp`)).toBe(`/images/${ID}-128.webp`);
    expect(logoSrc('https://cdn.example/logo.webp')).toBe('https://cdn.example/logo.webp');
    for (const bad of [
      null,
      undefined,
      '',
      'javascript:alert(1)',
      'http://cdn.example/l.png',
      `/images/${ID}-64.webp`,
      '//evil.example/x.webp',
    ])
      expect(logoSrc(bad)).toBeNull();
  });
});

describe('coverSources', () => {
  it('uses the 800 variant as src and lists 400/800/1200 with their real widths', () => {
    expect(coverSources({ url: `/images/${ID}.webp`, width: 1200, height: 675 })).toEqual({
      src: `/images/${ID}-800.webp`,
      srcSet: `/images/${ID}-400.webp 400w, /images/${ID}-800.webp 800w, /images/${ID}-1200.webp 1200w`,
      width: 800,
      height: 450,
    });
  });

  it('never claims widths a small original does not have, and drops duplicates', () => {
    // A 600×300 upload: the gateway serves 400 and 600 (for both -800 and -1200).
    expect(coverSources({ url: `/images/${ID}.webp`, width: 600, height: 300 })).toEqual({
      src: `/images/${ID}-800.webp`,
      srcSet: `/images/${ID}-400.webp 400w, /images/${ID}-800.webp 600w`,
      width: 600,
      height: 300,
    });
  });

  it('falls back to 16:9 (800×450) when the size is unknown', () => {
    const s = coverSources({ url: `/images/${ID}.webp`, width: null, height: null });
    expect(s).toMatchObject({ width: 800, height: 450 });
    expect(s?.srcSet).toContain('1200w');
  });

  it('shows another gateway’s https URL as it is, and nothing for anything else', () => {
    expect(coverSources({ url: 'https://cdn.example.com/a.jpg', width: null, height: null })).toEqual({
      src: 'https://cdn.example.com/a.jpg',
      width: 800,
      height: 450,
    });
    expect(coverSources({ url: 'javascript:alert(1)', width: null, height: null })).toBeNull();
    expect(coverSources({ url: 'http://insecure.example.com/a.jpg', width: null, height: null })).toBeNull();
    expect(coverSources(null)).toBeNull();
  });

  it('coverOf is null without a cover URL', () => {
    expect(coverOf({ coverImageUrl: null, coverImageWidth: null, coverImageHeight: null })).toBeNull();
    expect(coverOf({ coverImageUrl: `/images/${ID}.webp`, coverImageWidth: 10, coverImageHeight: 5 })).toEqual({
      url: `/images/${ID}.webp`,
      width: 10,
      height: 5,
    });
  });

  it('coverVariantUrl only rewrites our own cover URLs', () => {
    expect(coverVariantUrl(`/images/${ID}.webp`, 400)).toBe(`/images/${ID}-400.webp`);
    expect(coverVariantUrl(`/images/${ID}-800.webp`, 400)).toBeNull();
    expect(coverVariantUrl('https://x.test/images/a.webp', 400)).toBeNull();
  });
});

// Issue 27 item 25: a tournament without a cover showed a 185 px empty box at the top of its page.
describe('CoverImage without a cover', () => {
  it('draws nothing on the detail page (natural fit), and keeps the framed placeholder where the shape matters', async () => {
    const { createElement } = await import('react');
    const { renderToString } = await import('react-dom/server');
    const { CoverImage } = await import('~/components/cover-image');
    expect(renderToString(createElement(CoverImage, { cover: null, alt: 'x', sizes: '100vw', fit: 'natural' }))).toBe('');
    expect(renderToString(createElement(CoverImage, { cover: null, alt: 'x', sizes: '100vw' }))).toBe(
      '<div class="cv cv-f cv-ph" aria-hidden="true"></div>',
    );
  });
});
