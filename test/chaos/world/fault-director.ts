/**
 * Carries out a seed's timed faults in the world: kill -9 (at a time, or at the process's next post, batch, look,
 * digest post or commit after it) and the supervisor's restart, SIGSTOP of a replica or of Redis, store outages,
 * a channel closed to the bot and opened again (with or without the platform's event), and the API's faults.
 */
import type { ChannelRef } from '../../../src/core/index.js';
import type { Simulator } from '../../../src/simulator/index.js';
import type { ManualClock } from '../../support/manual-clock.js';
import type { DiscordModel } from '../platforms/discord-model.js';
import { chaosDiscord } from '../platforms/discord-model.js';
import type { JournalEntry } from '../platforms/exchange.js';
import type { SlackModel } from '../platforms/slack-model.js';
import { chaosSlack } from '../platforms/slack-model.js';
import type { ProcessLife, StoreStep } from '../process-life.js';
import type { StoreFaults } from '../store-faults.js';
import type { TimedFault } from '../vocabulary.js';
import type { BotProcess } from './bot-process.js';
import type { Disruption } from './world-record.js';

type Kill = Extract<TimedFault, { kind: 'kill' }>;

export interface DirectorDeps {
  readonly clock: ManualClock;
  readonly sim: Simulator;
  readonly linkCaption: string;
  readonly slack: SlackModel;
  readonly discord: DiscordModel;
  readonly store: StoreFaults;
  readonly disruptions: Disruption[];
  readonly notes: string[];
  /** The current process of each replica slot. */
  readonly processes: Map<number, BotProcess>;
  /** Starts the next process of a slot (a restart). */
  restart(slot: number): void;
  /** Runs `work` when the world's clock reaches `at`. */
  at(at: number, work: () => void): void;
}

export function channelRef(platform: 'slack' | 'discord', channelId: string): ChannelRef {
  return {
    platform,
    workspaceId: platform === 'slack' ? chaosSlack.teamId : chaosDiscord.guildId,
    channelId,
  };
}

const headWrite = /^engine\/[^/]+\/head$/;

export class FaultDirector {
  readonly #armed: Kill[] = [];

  constructor(private readonly deps: DirectorDeps) {}

  /** Schedules every timed fault of the seed. */
  plan(faults: readonly TimedFault[]): void {
    for (const fault of faults) this.deps.at(fault.at, () => this.#apply(fault));
  }

  /** A request reached a platform: an armed kill of its process's slot may land here. */
  received(entry: JournalEntry, life: ProcessLife): void {
    const kill = this.#armed.find((k) => k.slot === life.slot && matches(k, entry));
    if (kill && this.deps.processes.get(life.slot)?.life === life) this.#fire(kill);
  }

  /** A store step of a process: an armed kill `commit` lands before or after the head write. */
  storeStep(life: ProcessLife, step: StoreStep, phase: 'before' | 'after'): void {
    if (step.operation !== 'set' || !headWrite.test(step.key)) return;
    const kill = this.#armed.find((k) => k.slot === life.slot && k.moment === 'commit' && k.phase === phase);
    if (kill && this.deps.processes.get(life.slot)?.life === life) this.#fire(kill);
  }

  /** Kills armed but never landed (their moment never came). */
  unfired(): readonly Kill[] {
    return this.#armed;
  }

  #fire(kill: Kill): void {
    this.#armed.splice(this.#armed.indexOf(kill), 1);
    this.#kill(kill.slot, kill.restartAfterMs);
  }

  #kill(slot: number, restartAfterMs: number | null): void {
    const process = this.deps.processes.get(slot);
    if (!process || process.life.state === 'dead') return;
    process.life.kill();
    const now = this.deps.clock.now();
    const disruption: Disruption = { from: now, to: Number.POSITIVE_INFINITY, what: 'kill' };
    this.deps.disruptions.push(disruption);
    if (restartAfterMs === null) return;
    disruption.to = now + restartAfterMs;
    this.deps.at(now + restartAfterMs, () => this.deps.restart(slot));
  }

  #apply(fault: TimedFault): void {
    const { deps } = this;
    const now = deps.clock.now();
    switch (fault.kind) {
      case 'kill':
        if (fault.moment === 'any') this.#kill(fault.slot, fault.restartAfterMs);
        else this.#armed.push(fault);
        return;
      case 'pause': {
        const life = deps.processes.get(fault.slot)?.life;
        if (!life?.running) return;
        life.pause();
        deps.disruptions.push({ from: now, to: now + fault.forMs, what: 'pause' });
        deps.at(now + fault.forMs, () => life.resume());
        return;
      }
      case 'store-outage':
        deps.store.outage(now + fault.forMs);
        deps.disruptions.push({ from: now, to: now + fault.forMs, what: 'store' });
        return;
      case 'store-pause':
        deps.store.pause(now + fault.forMs);
        deps.disruptions.push({ from: now, to: now + fault.forMs, what: 'store' });
        return;
      case 'access':
        this.#closeChannel(fault);
        return;
      case 'api':
        this.#apiFault(fault);
        // Until the API serves the fundings again (run-world.ts ends it): a supporter who arrives meanwhile is read
        // only after the fault's Retry-Afters or backoff, which the bot must obey.
        deps.disruptions.push({ from: now, to: Number.POSITIVE_INFINITY, what: 'api' });
        return;
    }
  }

  #closeChannel(fault: Extract<TimedFault, { kind: 'access' }>): void {
    const { deps } = this;
    const now = deps.clock.now();
    const setOpen = (open: boolean) => {
      if (fault.platform === 'discord') deps.discord.setCanSend(fault.channel, open);
      else if (fault.problem === 'is_archived')
        deps.slack.directory.setChannel({ id: fault.channel, isArchived: !open });
      else deps.slack.directory.setChannel({ id: fault.channel, isMember: open });
    };
    setOpen(false);
    deps.disruptions.push({
      from: now,
      to: now + fault.forMs,
      what: 'access',
      channel: `${fault.platform}:${fault.channel}`,
      looksRefused: fault.platform === 'slack' && fault.problem === 'not_in_channel',
    });
    deps.at(now + fault.forMs, () => {
      setOpen(true);
      if (!fault.eventOnReturn) return;
      // member_joined_channel, channel_unarchive, CHANNEL_UPDATE: the adapter tells the pipeline.
      for (const process of deps.processes.values()) {
        if (process.life.running)
          process.wiring.delivery.accessMayHaveChanged(channelRef(fault.platform, fault.channel));
      }
    });
  }

  #apiFault(fault: Extract<TimedFault, { kind: 'api' }>): void {
    const faults = this.deps.sim.faults;
    const n = fault.n;
    if (fault.fault === '5xx') faults.serverError({ n, status: 503 });
    else if (fault.fault === '429') faults.rateLimitStorm({ n, retryAfterSeconds: Math.min(10, n * 2) });
    // Real milliseconds (the simulator's slow is on the real clock): a slow answer, not a timeout.
    else if (fault.fault === 'slow') faults.slow({ n, delayMs: 20 });
    else if (fault.fault === 'shift')
      faults.shiftBetweenPages({ path: '/fundings', n, insert: 1, remove: 0 });
    else faults.malformedJson({ path: '/fundings', n });
  }
}

/** Whether a kill armed for a moment lands on this request. */
export function matches(kill: Kill, entry: JournalEntry): boolean {
  switch (kill.moment) {
    case 'post':
      return entry.category === 'post';
    case 'batch':
      return entry.category === 'post' && entry.postKind === 'batch';
    case 'digest':
      return entry.category === 'post' && entry.postKind === 'digest';
    case 'look':
      return entry.category === 'look';
    default:
      return false;
  }
}
