import type {
  CampaignSettings,
  ChannelRef,
  Locale,
  ProjectReadModel,
  SubscriptionStore,
} from '../core/index.js';
import type { ScheduledPost } from '../delivery/index.js';
import type { Logger } from '../domain/logger.js';
import type { Clock } from '../lib/clock.js';
import type { CampaignCheckStore } from './campaign-check-store.js';
import type { RollCallJournal } from './roll-call-journal.js';

/**
 * What the campaign checks (goal pace, roll-call) share: the engine's read model, the channels and their
 * settings, their own small state in the store, and the delivery pipeline's scheduled posts.
 */
export interface CampaignCheckDeps {
  readonly readModel: ProjectReadModel;
  readonly subscriptions: Pick<SubscriptionStore, 'forProject'>;
  readonly campaign: Pick<CampaignSettings, 'deadlineOf' | 'rollCallOf'>;
  readonly journal: RollCallJournal;
  /** The checks' own state: the pace verdicts and the roll-call cursors. */
  readonly checks: CampaignCheckStore;
  readonly localeFor: (channel: ChannelRef) => Promise<Locale>;
  readonly timeZoneFor: (channel: ChannelRef) => Promise<string>;
  /**
   * Posts through the pipeline (once per id and channel across replicas, by its ledger) and waits a while:
   * `posted`, `pending` (still on its way in its lane) or `failed` (cannot post there, given up).
   */
  readonly postWithin: (request: ScheduledPost) => Promise<'posted' | 'pending' | 'failed'>;
  readonly clock: Clock;
  readonly logger: Pick<Logger, 'debug' | 'info' | 'warn' | 'error'>;
}
