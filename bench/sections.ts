import { fundingCommandSection } from './funding-command.js';
import { hostileInputSection } from './hostile-input.js';
import { pacingDaySection } from './pacing-day.js';
import { plansSection } from './plans.js';
import { scaleSection } from './scale.js';
import type { BenchSection } from './section.js';
import { slackInDoubtSection } from './slack-in-doubt.js';
import { storeBytesSection } from './store-bytes.js';

/**
 * The sections `npm run bench` runs besides the campaign day. To add figures
 * (for example the /funding command's p99 and API requests during the day), add
 * a section here: its `campaign` hooks see the running engine and simulator, and
 * its figures are merged into the final JSON line.
 */
export const benchSections: BenchSection[] = [
  scaleSection,
  storeBytesSection,
  fundingCommandSection,
  slackInDoubtSection,
  pacingDaySection,
  plansSection,
  hostileInputSection,
];
