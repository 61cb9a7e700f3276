import { z } from 'zod';

/*
 * Orders and subscribers as the platform serves them. Only the simulator has them: fundbot reads no
 * personal data, so the API client (src/api) has neither a call nor a schema for them.
 */

/** An order (support). Personal data: never shown in a channel. No `id`. */
export const orderSchema = z.object({
  support_timestamp: z.number().int(),
  updated_timestamp: z.number().int(),
  collection_timestamp: z.number().int(),
  transaction_number: z.string(),
  total_amount: z.number(),
  status_code: z.string(),
  bill_address: z.object({
    firstname: z.string().nullable().optional(),
    lastname: z.string().nullable().optional(),
    city: z.string().nullable().optional(),
    country: z.string().nullable().optional(),
  }),
  ordered_incentives: z.array(
    z.object({
      id: z.number().int(),
      count: z.number().int(),
      price_single: z.number(),
      price_total: z.number(),
    }),
  ),
});
export type Order = z.infer<typeof orderSchema>;

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
