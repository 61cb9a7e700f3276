import { z } from 'zod';

/** A file attached to a reward or post; entries are not necessarily images. */
export const fileObjectSchema = z.object({
  is_image: z.boolean(),
  thumbnails: z
    .object({
      '1x': z.string().optional(),
      '2x': z.string().optional(),
    })
    .partial()
    .nullable()
    .optional(),
});
export type FileObject = z.infer<typeof fileObjectSchema>;
