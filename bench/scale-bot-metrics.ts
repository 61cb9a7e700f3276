/**
 * What a scale bench reads from the bot's `/metrics` (as a Prometheus scrape would): where its memory is
 * (prom-client's process and V8 figures).
 */

export interface BotMetrics {
  readonly memory: Record<string, number>;
  /** The bot's own view of its polling ceiling (src/app/watch-polling-ceiling.ts), when it exports one. */
  readonly ceiling?: { readonly perSecond: number; readonly keysPerSecond: number; readonly binds: boolean };
}

const mb = (bytes: number) => Math.round(bytes / 104_857.6) / 10;

/** Sums the samples of a metric (every label set). */
function metricSum(text: string, name: string): number | undefined {
  let sum: number | undefined;
  for (const line of text.split('\n')) {
    // A name with labels (`x{a="b"}`) matches that series only.
    if (!(line.startsWith(`${name} `) || (!name.endsWith('}') && line.startsWith(`${name}{`)))) continue;
    sum = (sum ?? 0) + Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return sum;
}

export async function readBotMetrics(opsUrl: string): Promise<BotMetrics> {
  const text = await (await fetch(`${opsUrl}/metrics`, { signal: AbortSignal.timeout(10_000) })).text();
  const memory: Record<string, number> = {};
  const figures: Record<string, string> = {
    rssMb: 'process_resident_memory_bytes',
    heapTotalMb: 'nodejs_heap_size_total_bytes',
    heapUsedMb: 'nodejs_heap_size_used_bytes',
    externalMb: 'nodejs_external_memory_bytes',
  };
  for (const [figure, name] of Object.entries(figures)) {
    const value = metricSum(text, name);
    if (value !== undefined) memory[figure] = mb(value);
  }
  // V8's spaces: what each holds (total: committed) and uses.
  for (const space of ['new', 'old', 'code', 'large_object']) {
    const total = metricSum(text, `nodejs_heap_space_size_total_bytes{space="${space}"}`);
    const used = metricSum(text, `nodejs_heap_space_size_used_bytes{space="${space}"}`);
    if (total !== undefined && used !== undefined) memory[`${space}SpaceMb`] = mb(total);
    if (used !== undefined) memory[`${space}SpaceUsedMb`] = mb(used);
  }
  const perSecond = metricSum(text, 'fundbot_polling_ceiling_requests_per_second');
  const keysPerSecond = metricSum(text, 'fundbot_polling_keys_requests_per_second');
  const binds = metricSum(text, 'fundbot_polling_ceiling_binds');
  if (perSecond === undefined || keysPerSecond === undefined || binds === undefined) return { memory };
  return { memory, ceiling: { perSecond, keysPerSecond, binds: binds === 1 } };
}
