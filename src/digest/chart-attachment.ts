import type { Locale, MessageImage } from '../core/index.js';
import { formatDate, formatMoney } from '../core/index.js';
import type { DigestData } from './build-digest.js';
import { digestText } from './i18n.js';
import {
  type ChartProjection,
  type FundingChartInput,
  type FundingChartOptions,
  renderFundingChart,
} from './render-funding-chart.js';

/** The chart of a digest: the same data, in `locale`. */
export function fundingChartInput(data: DigestData, locale: Locale): FundingChartInput {
  const { pace } = data;
  const projection: ChartProjection | undefined =
    pace.kind === 'eta'
      ? { kind: 'eta', at: pace.at, perDay: pace.perDay, basisDays: pace.basisDays }
      : pace.kind === 'no-supports'
        ? { kind: 'never' }
        : undefined;
  return {
    title: data.project.title || data.project.linkCaption,
    fallbackTitle: data.project.linkCaption,
    at: data.generatedAt,
    points: data.chart.points,
    goal: data.chart.goal,
    milestones: data.chart.milestones,
    supportersPerDay: data.chart.supportersPerDay,
    ...(projection ? { projection } : {}),
    currency: data.project.currency,
    locale,
    timeZone: data.timeZone,
  };
}

/** `funding-solar-kiosk-2026-01-08.png`: the slug is reduced to safe file-name characters. */
export function chartFilename(data: DigestData): string {
  const slug =
    data.project.linkCaption
      .replace(/[^a-zA-Z0-9_-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'project';
  return `funding-${slug}-${data.date}.png`;
}

/** The digest's chart as a PNG attachment with a text alternative, in `locale`. */
export function chartAttachment(
  data: DigestData,
  locale: Locale,
  chartOptions: FundingChartOptions = {},
): MessageImage {
  const t = digestText(locale);
  const money = (n: number) => formatMoney(n, data.project.currency, locale);
  const { funding } = data;
  const points = data.chart.points;
  const first = points[0];
  const last = points[points.length - 1];
  const alt =
    first && last
      ? funding.goal > 0
        ? t.chartAlt(
            money(funding.current),
            money(funding.goal),
            formatDate(first.at, locale, data.timeZone),
            formatDate(last.at, locale, data.timeZone),
          )
        : t.chartAltNoGoal(
            money(funding.current),
            formatDate(first.at, locale, data.timeZone),
            formatDate(last.at, locale, data.timeZone),
          )
      : t.chartAltEmpty;

  const png = renderFundingChart(fundingChartInput(data, locale), chartOptions);
  return { kind: 'attachment', filename: chartFilename(data), data: png, alt };
}
