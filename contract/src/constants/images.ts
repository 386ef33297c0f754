// --- Cover images (decision 032) ---
export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;
export const MAX_INPUT_PIXELS = 40_000_000;
export const MIN_COVER_WIDTH = 200;
export const MIN_COVER_HEIGHT = 100;
/** Nominal widths of the stored WebP renditions (/images/{id}-{width}.webp). */
export const VARIANT_WIDTHS = [400, 800, 1200] as const;
/** At most this many times as tall as wide. */
export const MAX_TALLNESS = 4;
/** The multipart field of the cover image in the tournament form. */
export const COVER_FIELD = 'coverImage';
export const IMAGE_MESSAGES = {
  wrongType: 'Please upload only image files.',
  tooLarge: 'The cover image is larger than 5 MB.',
  tooSmall: `The cover image is too small: at least ${MIN_COVER_WIDTH}×${MIN_COVER_HEIGHT} pixels.`,
  tooTall: `The cover image is too tall: at most ${MAX_TALLNESS} times as tall as it is wide.`,
  tooManyPixels: `The cover image has too many pixels: at most ${MAX_INPUT_PIXELS / 1_000_000} megapixels.`,
  unreadable: 'The cover image could not be read. It may be damaged; please try another file.',
  tooMany: 'Please upload only one cover image.',
  hiddenData: 'The cover image has other data after the picture. Please save it again as an image and upload that.',
} as const;
