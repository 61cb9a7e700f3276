import { z } from 'zod';

export const blogTypeSchema = z.enum(['text', 'story']);
export type BlogType = z.infer<typeof blogTypeSchema>;

/**
 * A blog post. On a redacted supporter-only post (`is_locked`), `description`
 * is a public teaser (at most 400 characters) and the media fields are empty.
 */
export const blogPostSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  text: z.string(),
  type: z.string(),
  status: z.string(),
  release_timestamp: z.number().int(),
  is_supporter_only: z.boolean(),
  is_locked: z.boolean(),
  description: z.string().nullable().optional(),
  image: z.unknown().optional(),
  image_mobile: z.unknown().optional(),
  gallery_images: z.unknown().optional(),
  embed_url_13: z.unknown().optional(),
  video: z.unknown().optional(),
  reading_time_minutes: z.number().int(),
});
export type BlogPost = z.infer<typeof blogPostSchema>;
