import { ForbiddenError, type Project, UnauthorizedError } from '../../api/index.js';
import type { EngineServices, RequestTag } from '../context/engine-services.js';
import { CredentialGate, DeferredError } from './credential-gate.js';
import { request } from './feed-request.js';
import type { PlannedProject } from './schedule-slice.js';

/** The spec (api-spec.md): an unauthenticated project read answers from status `started` on; `new` is a draft. */
const DRAFT_STATUS = 'new';

/** At least one keyed read per this many project reads: the public view lacks `process_status` (payoff). */
export const KEYED_READ_EVERY = 4;

/** Whether `rt`'s project polls can be read without a credential (the planner plans them on the public budget). */
export function readsOnPublic(ctx: EngineServices, rt: PlannedProject): boolean {
  const last = rt.state?.project?.snapshot;
  return ctx.settings.publicReads && rt.paused === null && last !== undefined && last.status !== DRAFT_STATUS;
}

/**
 * The per-IP public budget (`X-RateLimit-Public-*`, 1,000 a day) is one per process,
 * shared by every project: one gate for it, keeping the same reserve as a key's.
 */
const publicGates = new WeakMap<EngineServices, { gate: CredentialGate; reads: Map<string, number> }>();

function publicGateOf(ctx: EngineServices): { gate: CredentialGate; reads: Map<string, number> } {
  let entry = publicGates.get(ctx);
  if (entry === undefined) {
    entry = { gate: new CredentialGate(ctx.settings.reserveShare), reads: new Map() };
    publicGates.set(ctx, entry);
  }
  return entry;
}

/**
 * Reads the project, spending the cheap budget first: a poll of a public project
 * (status `started` or later at the last read) is read WITHOUT a credential while
 * the per-IP public budget allows (the key is never sent on that request), which
 * leaves the key's budget to the lists; otherwise, for commands, for a draft, every
 * {@link KEYED_READ_EVERY}th read and when the public budget is down to its reserve,
 * with the key. The public view lacks the fields a key adds (`process_status`):
 * they are carried over from the last keyed read. Costs: one request either way; none for a project's first
 * poll after its start-up key check (EngineProject.checkedRead).
 */
export async function readProject(
  ctx: EngineServices,
  rt: PlannedProject,
  tag: RequestTag,
  last: Project | undefined,
): Promise<Project> {
  const lc = rt.config.linkCaption;
  // The first poll's read was made moments ago by the start-up key check, with the same key: not sent twice.
  const checked = last === undefined && tag !== 'command' ? rt.config.checkedRead?.() : undefined;
  if (checked !== undefined) return checked;
  const { gate, reads } = publicGateOf(ctx);
  const count = (reads.get(lc) ?? 0) + 1;
  reads.set(lc, count);
  const eligible =
    ctx.settings.publicReads &&
    tag !== 'command' &&
    // A paused project's read is the probe of its key: it must carry the key.
    rt.paused === null &&
    last !== undefined &&
    last.status !== DRAFT_STATUS &&
    count % KEYED_READ_EVERY !== 0;
  if (eligible) {
    const now = ctx.clock.now();
    try {
      gate.check(now, ctx.api.budget(), 'poll', ctx.api.pausedUntil());
    } catch (error) {
      if (!(error instanceof DeferredError)) throw error;
      return request(ctx, rt, tag, () => rt.api.get());
    }
    gate.sent();
    ctx.counters.publicReads += 1;
    try {
      // No key at all: ctx.api.project(lc) has no credential to send.
      const view = await ctx.api.project(lc).get();
      return { ...view, process_status: view.process_status ?? last.process_status ?? null };
    } catch (error) {
      // Not public (any more): says nothing about the key, so not a key rejection; read with the key.
      if (!(error instanceof UnauthorizedError || error instanceof ForbiddenError)) throw error;
    }
  }
  return request(ctx, rt, tag, () => rt.api.get());
}
