import { z } from 'zod';

/** A subscriber. Personal data: never shown in a channel. No `id`; `user` is null without an account. */
export const subscriberSchema = z.object({
  subscribed_timestamp: z.number().int(),
  is_news_subscribed: z.boolean(),
  user: z
    .object({
      id: z.number().int(),
      first_name: z.string(),
      last_name: z.string(),
      is_public: z.boolean(),
    })
    .nullable(),
});
export type Subscriber = z.infer<typeof subscriberSchema>;
