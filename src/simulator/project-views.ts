/**
 * The wire shapes of the project itself: the `project` object (public or keyed) and
 * the `/user/me/projects` item. Pure functions of the project's public state, so
 * `SimProject` keeps only the state and its controls.
 */
import type { OwnProject, Project } from '../api/schemas/index.js';
import type { ProjectFacts } from './project-context.js';
import { toSeconds } from './wire-units.js';

/** The project state the views read (all public on `SimProject`). */
export interface ProjectViewSource extends ProjectFacts {
  readonly subtitle: string;
  readonly teaserText: string;
  readonly status: string;
  readonly processStatus: string | null;
  readonly allOrNothing: boolean;
  readonly currentFunding: number;
  readonly supporterCount: number;
  readonly likeCount: number;
  readonly activationAt: number;
  readonly endAt: number;
}

/** `project` object. `full` adds the fields only a key with access sees. */
export function projectView(
  project: ProjectViewSource,
  publicBaseUrl: string,
  full: boolean,
): Project & Record<string, unknown> {
  const main = `${publicBaseUrl}/${project.linkCaption}`;
  const view: Project & Record<string, unknown> = {
    id: project.id,
    title: project.title,
    subtitle: project.subtitle,
    link_caption: project.linkCaption,
    status: project.status,
    currency: project.currency,
    current_funding: project.currentFunding,
    total_funding: project.currentFunding,
    funding_threshold: project.fundingThreshold,
    project_type_all_or_nothing: project.allOrNothing,
    supporter_count: project.supporterCount,
    like_count: project.likeCount,
    teaser_text: project.teaserText,
    url: {
      main,
      main_relative: `/${project.linkCaption}`,
      comments: `${main}/comments`,
      faq: `${main}/faq`,
      widget: `${main}/widget`,
      localized_urls: { de: `/de/${project.linkCaption}`, en: `/en/${project.linkCaption}` },
    },
  };
  if (full) {
    view.process_status = project.processStatus;
    view.activation_timestamp = toSeconds(project.activationAt);
    view.end_timestamp = toSeconds(project.endAt);
  }
  return view;
}

export function ownProjectView(project: ProjectViewSource): OwnProject {
  return {
    id: project.id,
    title: project.title,
    link_caption: project.linkCaption,
    status: project.status,
    currency: project.currency,
    current_funding: project.currentFunding,
    funding_threshold: project.fundingThreshold,
    supporter_count: project.supporterCount,
  };
}
