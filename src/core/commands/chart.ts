import { singleLine } from '../../domain/text.js';
import { limits } from '../../domain/text-limits.js';
import { CommandRefusal } from '../command-refusal.js';
import type { NeutralMessage } from '../message.js';
import { resolveProject } from '../resolve-project.js';
import { type CommandRun, readOrRefuse } from './command-run.js';

/**
 * /chart: the digest's funding chart, on demand, as an image attachment (the
 * adapters post it as they post the digest's). Rendered by src/digest from the
 * engine's cache and history: no API request when the project was read within
 * the digest's five minutes, about 60-90 kB of PNG per answer.
 */
export async function chartCommand(run: CommandRun): Promise<NeutralMessage> {
  const render = run.deps.fundingChart;
  if (!render) throw new CommandRefusal((t) => t.errors.chartNotConfigured);
  const watched = await resolveProject(run);
  return readOrRefuse(
    run,
    () => render(watched.linkCaption, run.locale),
    (tt) => tt.errors.projectNotFound(singleLine(watched.linkCaption, limits.title)),
  );
}
