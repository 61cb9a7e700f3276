import { z } from 'zod';

export const projectUrlSchema = z.object({
  main: z.string(),
  main_relative: z.string().optional(),
  comments: z.string().optional(),
  faq: z.string().optional(),
  widget: z.string().optional(),
  localized_urls: z.record(z.string(), z.string()).optional(),
});

/**
 * `project.status` is an open set: the spec names new, started, active, successful
 * but does not promise that list is complete, so unknown values are kept as strings.
 */
export const projectSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  subtitle: z.string(),
  link_caption: z.string(),
  status: z.string(),
  process_status: z.string().nullable().optional(),
  currency: z.string(),
  current_funding: z.number(),
  total_funding: z.number(),
  funding_threshold: z.number(),
  project_type_all_or_nothing: z.boolean(),
  supporter_count: z.number().int(),
  like_count: z.number().int(),
  teaser_text: z.string(),
  url: projectUrlSchema,
});
export type Project = z.infer<typeof projectSchema>;

/**
 * `{ project, status }`. The top-level `status` is legacy (always 0) and is
 * deliberately not part of the schema: fundbot never relies on it.
 */
export const projectResponseSchema = z.object({ project: projectSchema });

/** Item of `/user/me/projects` (own and team projects, drafts included). */
export const ownProjectSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  link_caption: z.string(),
  status: z.string(),
  currency: z.string(),
  current_funding: z.number(),
  funding_threshold: z.number(),
  supporter_count: z.number().int(),
});
export type OwnProject = z.infer<typeof ownProjectSchema>;
