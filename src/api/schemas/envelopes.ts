import { z } from 'zod';

/** `meta` of every list response: `total` entries in all, the `limit` actually applied, the start `offset`. */
export const listMetaSchema = z.object({
  total: z.number().int().nonnegative(),
  limit: z.number().int().nonnegative(),
  offset: z.number().int().nonnegative(),
});
export type ListMeta = z.infer<typeof listMetaSchema>;

/** List envelope: `{ data: [item...], meta }`. */
export function listEnvelopeSchema<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), meta: listMetaSchema });
}
export interface ListEnvelope<T> {
  data: T[];
  meta: ListMeta;
}

/** Single-item envelope: `{ data: item }`. */
export function itemEnvelopeSchema<T extends z.ZodType>(item: T) {
  return z.object({ data: item });
}

/** Error envelope. `error_description` is for humans only: never branch on it. */
export const apiErrorBodySchema = z.object({
  error: z.string(),
  error_description: z.string().nullable().optional(),
});
export type ApiErrorBody = z.infer<typeof apiErrorBodySchema>;

/** Unix timestamp in seconds (the API's only date format). */
export const unixSeconds = z.number().int();
