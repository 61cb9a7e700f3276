import type { FeedName } from '../../domain/feeds.js';
import type { EngineContext, RequestTag } from '../project/engine-context.js';
import type { ProjectRuntime } from '../project/project-runtime.js';
import { pollBlog } from './blog.js';
import { pollFundings } from './fundings.js';
import { pollIncentives } from './incentives.js';
import { pollProject } from './project.js';
import { pollWall } from './wall.js';

/** One poll of one feed: reads, diffs, and commits state and events in one write. */
export type FeedPoller = (ctx: EngineContext, rt: ProjectRuntime, tag: RequestTag) => Promise<void>;

/** The poll of each feed. */
export const pollers: Readonly<Record<FeedName, FeedPoller>> = {
  fundings: pollFundings,
  project: pollProject,
  wall: pollWall,
  blog: pollBlog,
  incentives: pollIncentives,
};
