import { z } from 'zod';

export const wallPostSchema = z.object({
  id: z.number().int(),
  message: z.string(),
  status: z.string(),
  created_timestamp: z.number().int(),
  user: z.object({
    id: z.number().int(),
    first_name: z.string(),
    last_name: z.string(),
    display_name: z.string(),
  }),
});
export type WallPost = z.infer<typeof wallPostSchema>;
