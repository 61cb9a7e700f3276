import { z } from 'zod';

/** Public funding entry: no `id`; the stable key is `support_timestamp` + user. */
export const fundingSchema = z.object({
  support_timestamp: z.number().int(),
  user: z.object({
    id: z.number().int(),
    display_name: z.string(),
  }),
});
export type Funding = z.infer<typeof fundingSchema>;
