import { z } from 'zod';
import { fileObjectSchema } from './file-object.js';

/** A reward. The API calls rewards "incentives" everywhere. */
export const incentiveSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  /** HTML: render as plain text only. */
  description: z.string(),
  price: z.number(),
  /** 0 means unlimited. */
  quantity_total: z.number().int(),
  /** Meaningful only while quantity_total > 0 (999 placeholder otherwise). */
  quantity_remaining: z.number().int(),
  quantity_sold: z.number().int(),
  status: z.string(),
  address_required: z.boolean(),
  /** In stock; already handles unlimited rewards; says nothing about visibility. */
  is_available: z.boolean(),
  is_unlocked: z.boolean(),
  hidden_until_goal_reached: z.boolean(),
  funding_amount_until_unlock: z.number().nullable().optional(),
  /** A "ships immediately" label: NOT availability. */
  is_in_stock: z.boolean(),
  url: z.string(),
  gallery_images: z.array(fileObjectSchema),
  project: z
    .object({
      id: z.number().int().optional(),
      title: z.string().optional(),
      link_caption: z.string().optional(),
      currency: z.string().optional(),
    })
    .optional(),
});
export type Incentive = z.infer<typeof incentiveSchema>;

export const incentiveOptionSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  position: z.number().int(),
  group: z.number().int().min(1).max(3),
});
export type IncentiveOption = z.infer<typeof incentiveOptionSchema>;

/** Single-reward response: the list fields plus up to three variation groups. */
export const incentiveDetailSchema = incentiveSchema.extend({
  variant_label_1: z.string().nullable(),
  variant_label_2: z.string().nullable(),
  variant_label_3: z.string().nullable(),
  variant_choices_1: z.array(incentiveOptionSchema),
  variant_choices_2: z.array(incentiveOptionSchema),
  variant_choices_3: z.array(incentiveOptionSchema),
});
export type IncentiveDetail = z.infer<typeof incentiveDetailSchema>;

/** Item of `/user/me/incentives`. */
export const ownIncentiveSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  price: z.number(),
  is_available: z.boolean(),
  quantity_total: z.number().int(),
  quantity_remaining: z.number().int(),
  project: z.object({ id: z.number().int(), title: z.string(), link_caption: z.string() }),
});
export type OwnIncentive = z.infer<typeof ownIncentiveSchema>;
