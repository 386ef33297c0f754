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

// --- Organisers' logos (issue 29, decision 068): the cover's pipeline, formats and limits ---
/** The multipart field of the logo in PUT /organisers/{slug}, and the flag that removes it. */
export const LOGO_FIELD = 'logo';
export const REMOVE_LOGO_FIELD = 'removeLogo';
/** A logo is shown at most 64 CSS pixels wide: it is stored at 128 (2× screens) and at 400 (its largest). */
export const LOGO_WIDTH = 128;
export const LOGO_WIDTHS = [LOGO_WIDTH, 400] as const;
/** Every width /images/{id}-{width}.webp serves. */
export const IMAGE_WIDTHS = [LOGO_WIDTH, ...VARIANT_WIDTHS] as const;
/** The cover's messages (IMAGE_MESSAGES) naming the logo; "only image files" is word for word the same. */
export const LOGO_MESSAGES = {
  wrongType: IMAGE_MESSAGES.wrongType,
  tooLarge: 'The logo is larger than 5 MB.',
  tooSmall: `The logo is too small: at least ${MIN_COVER_WIDTH}×${MIN_COVER_HEIGHT} pixels.`,
  tooTall: `The logo is too tall: at most ${MAX_TALLNESS} times as tall as it is wide.`,
  tooManyPixels: `The logo has too many pixels: at most ${MAX_INPUT_PIXELS / 1_000_000} megapixels.`,
  unreadable: 'The logo could not be read. It may be damaged; please try another file.',
  tooMany: 'Please upload only one logo.',
  hiddenData: 'The logo has other data after the picture. Please save it again as an image and upload that.',
} as const satisfies Record<keyof typeof IMAGE_MESSAGES, string>;
export type ImageMessages = { readonly [K in keyof typeof IMAGE_MESSAGES]: string };
