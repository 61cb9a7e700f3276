import { deliveryChaosSection } from './delivery-chaos.js';
import { deliveryFaultsSection } from './delivery-faults/run-delivery-faults.js';
import { fundingCommandSection } from './funding-command.js';
import { hostileInputSection } from './hostile-input.js';
import { oracleSchedulesSection } from './oracle-schedules.js';
import { pacingDaySection } from './pacing-day.js';
import { plansSection } from './plans.js';
import { readToPostSection } from './read-to-post.js';
import { scaleSection } from './scale.js';
import { scaleRedisSection } from './scale-redis.js';
import type { BenchSection } from './section.js';
import { slackInDoubtSection } from './slack-in-doubt.js';
import { storeBytesSection } from './store-bytes.js';
import { storeDiskSection } from './store-disk.js';
import { wholeDaySection } from './whole-day.js';

/**
 * The sections `npm run bench` runs besides the campaign day. To add figures
 * (for example the /funding command's p99 and API requests during the day), add
 * a section here: its `campaign` hooks see the running engine and simulator, and
 * its figures are merged into the final JSON line.
 */
export const benchSections: BenchSection[] = [
  scaleSection,
  scaleRedisSection,
  storeBytesSection,
  storeDiskSection,
  fundingCommandSection,
  slackInDoubtSection,
  deliveryFaultsSection,
  deliveryChaosSection,
  readToPostSection,
  pacingDaySection,
  wholeDaySection,
  oracleSchedulesSection,
  plansSection,
  hostileInputSection,
];
