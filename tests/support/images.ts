import sharp from 'sharp';

/** A real PNG of the given size and colour (the gateway checks image bytes and re-encodes them). */
export function pngImage(width = 800, height = 450, background = { r: 200, g: 40, b: 90 }): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();
}
