import { z } from 'zod';

/** `/user/me/identity`: no personal data. */
export const identitySchema = z.object({
  id: z.number().int(),
  link_caption: z.string(),
  scopes: z.array(z.object({ scope: z.string(), endpoints: z.array(z.string()) })),
});
export type Identity = z.infer<typeof identitySchema>;

/** `/user/me`: personal data; never cached together with public project data. */
export const profileSchema = z.object({
  id: z.number().int(),
  display_name: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  address_city: z.string().nullable().optional(),
  biography: z.string().nullable().optional(),
  profile_image: z.unknown().optional(),
  own_projects_count: z.number().int(),
  team_projects_count: z.number().int(),
  supported_projects_count: z.number().int(),
  registered_timestamp: z.number().int(),
  url: z.object({ main: z.string() }),
});
export type Profile = z.infer<typeof profileSchema>;
export const profileResponseSchema = z.object({ user: profileSchema });
