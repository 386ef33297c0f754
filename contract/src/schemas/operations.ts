import { z } from 'zod';
import { IMAGE_WIDTHS } from '../constants.js';

export const HealthOkSchema = z.object({ status: z.literal('ok') });
export const HealthDownSchema = z.union([
  z.object({ status: z.literal('unavailable'), message: z.string() }),
  z.object({ status: z.literal('degraded'), message: z.string(), since: z.string(), code: z.string() }),
]);

export const GenerationSchema = z.object({
  generation: z.string().describe('Opaque; compare for equality only'),
});

export const ImageIdSchema = z.string().regex(/^[0-9a-f]{8,64}$/, 'Not a valid image id.');
const WIDTHS = IMAGE_WIDTHS.map(String) as [string, ...string[]];

export const ImageLargestParamsSchema = z.object({ imageId: ImageIdSchema });
export const ImageVariantParamsSchema = z.object({
  imageId: ImageIdSchema,
  width: z.enum(WIDTHS, { errorMap: () => ({ message: `Width must be one of ${WIDTHS.join(', ')}.` }) }),
});
