/**
 * The daily digest: what happened to a project in the last 24 hours, with a
 * PNG chart of its funding, sent to subscribed channels on a schedule.
 */
export {
  type BuildDigestOptions,
  buildDigest,
  type DigestData,
  type DigestPace,
} from './build-digest.js';
// Issue 32, items 4 and 5: the goal-pace alerts and the roll-call, scheduled like the digest.
export {
  type CampaignCheckStore,
  createCampaignCheckStore,
  forgetCampaignChecksNaming,
  type RollCallCursor,
} from './campaign-check-store.js';
export type { SettingsStamp } from './campaign-reads.js';
export { type CampaignWatch, type CampaignWatchOptions, createCampaignWatch } from './campaign-watch.js';
export { chartAttachment, chartFilename, fundingChartInput } from './chart-attachment.js';
export { CHART_FONT_FAMILY, chartFontFiles, registerChartFont } from './chart-font.js';
export { type DigestDue, type DigestDueInput, digestDue } from './digest-due.js';
export { chartPreview, digestPreview } from './digest-preview.js';
export {
  type CronLike,
  createDigestScheduler,
  type DigestLogger,
  type DigestRunReport,
  type DigestScheduler,
  type DigestSchedulerOptions,
} from './digest-scheduler.js';
export { renderDigest } from './render-digest.js';
export {
  CHART_HEIGHT,
  CHART_WIDTH,
  type ChartProjection,
  chartColors,
  type FundingChartInput,
  type FundingChartOptions,
  renderFundingChart,
} from './render-funding-chart.js';
export { latestRollCall, type RollCallPeriod, type RollCallSchedule } from './roll-call-due.js';
export { createRollCallJournal, type JournalSupporter, type RollCallJournal } from './roll-call-journal.js';
