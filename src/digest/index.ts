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
