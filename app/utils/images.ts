/** Cover images: the gateway stores each cover as WebP in three widths (400, 800, 1200) and the web app proxies /images/*. */

export const COVER_WIDTHS = [400, 800, 1200] as const;
export type CoverWidth = (typeof COVER_WIDTHS)[number];

/** The size used for src (and for width/height when the real size is unknown): 16:9. */
export const DEFAULT_COVER = { width: 800, height: 450 } as const;

/** File names the /images route accepts: "<hex>.webp", "<hex>-<128|400|800|1200>.webp" (128: logos) or "<hex>.jpg". */
const IMAGE_FILE = /^[0-9a-f]{8,64}(?:(?:-(?:128|400|800|1200))?\.webp|\.jpg)$/;
const LOCAL_IMAGE_URL = /^\/images\/[0-9a-f]{8,64}(?:-(?:128|400|800|1200))?\.webp$/;
const LOCAL_COVER_URL = /^\/images\/([0-9a-f]{8,64})\.webp$/;

export function isImageFileName(name: string): boolean {
  return IMAGE_FILE.test(name);
}

export interface Cover {
  url: string;
  width: number | null;
  height: number | null;
}

/** The fields of a tournament that describe its cover, or null when it has none. */
export function coverOf(t: {
  coverImageUrl: string | null;
  coverImageWidth: number | null;
  coverImageHeight: number | null;
}): Cover | null {
  return t.coverImageUrl ? { url: t.coverImageUrl, width: t.coverImageWidth, height: t.coverImageHeight } : null;
}

/** "/images/<id>.webp" → "/images/<id>-800.webp"; null for anything that is not one of our covers. */
export function coverVariantUrl(url: string, width: CoverWidth): string | null {
  const m = LOCAL_COVER_URL.exec(url);
  return m ? `/images/${m[1]}-${width}.webp` : null;
}

export interface CoverSources {
  src: string;
  srcSet?: string;
  width: number;
  height: number;
}

const positive = (n: number | null | undefined): n is number => typeof n === 'number' && Number.isFinite(n) && n > 0;

/**
 * What an <img> of a cover needs. Small originals are never enlarged by the gateway (the
 * 1200 variant of a 600 px upload is 600 px wide), so srcset states the real widths and drops
 * duplicates. width/height are the 800 variant's pixels (only their ratio matters to layout).
 * Returns null when there is nothing safe to show (no cover, or a URL that is neither ours nor https).
 */
export function coverSources(cover: Cover | null): CoverSources | null {
  if (!cover?.url) return null;
  const known = positive(cover.width) && positive(cover.height);
  const scaled = (nominal: number) => {
    if (!known) return { width: nominal, height: Math.round((nominal * DEFAULT_COVER.height) / DEFAULT_COVER.width) };
    const width = Math.min(nominal, cover.width!);
    return { width, height: Math.max(1, Math.round((cover.height! * width) / cover.width!)) };
  };
  const main = scaled(DEFAULT_COVER.width);

  if (!coverVariantUrl(cover.url, 800)) {
    // Another gateway's absolute URL: show it as it is, without variants.
    return /^https:\/\//.test(cover.url) ? { src: cover.url, ...main } : null;
  }
  const seen = new Set<number>();
  const candidates: string[] = [];
  for (const nominal of COVER_WIDTHS) {
    const { width } = scaled(nominal);
    if (seen.has(width)) continue;
    seen.add(width);
    candidates.push(`${coverVariantUrl(cover.url, nominal)} ${width}w`);
  }
  return { src: coverVariantUrl(cover.url, 800)!, srcSet: candidates.join(', '), ...main };
}

/** The CSS pixels an organiser's logo is shown at (its URL names the 128 px variant: decision 068). */
export const LOGO_SIZE = 64;
/** Beside "Organised by" on a tournament's page, and on its cards and slides. */
export const LOGO_SIZE_PAGE = 32;
export const LOGO_SIZE_SMALL = 24;

/** An organiser's logoUrl when it is safe to show: one of our images, or another gateway's https URL; else null. */
export function logoSrc(url: string | null | undefined): string | null {
  if (!url) return null;
  return LOCAL_IMAGE_URL.test(url) || /^https:\/\/[^\s"'<>]+$/.test(url) ? url : null;
}

/** A tournament's organiser as a card or page shows it (its logo checked), or null for an answer without one. */
export function organiserLineOf(t: {
  organiser?: { slug: string; name: string; logoUrl: string | null } | null;
}): { slug: string; name: string; logoUrl: string | null } | null {
  return t.organiser ? { slug: t.organiser.slug, name: t.organiser.name, logoUrl: logoSrc(t.organiser.logoUrl) } : null;
}
