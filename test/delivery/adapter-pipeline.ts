import type { ChannelAccess } from '../../src/core/ports.js';
import type { ChannelPoster } from '../../src/delivery/ports.js';
import { type PipelineHarness, type PipelineOptions, startPipeline } from './pipeline-harness.js';

/** A chat adapter as the platform tests drive it: its poster, its channel check, and how it stops. */
export interface TestAdapter {
  readonly poster: ChannelPoster;
  readonly channelAccess: ChannelAccess;
  stop(): Promise<void>;
}

/** The real pipeline with a real adapter registered, and the platform fake it talks to. */
export interface AdapterPipeline<Fake, Adapter extends TestAdapter> extends PipelineHarness {
  readonly fake: Fake;
  readonly adapter: Adapter;
}

/**
 * One bot process: the adapter's poster registered with the pipeline (its channel check
 * serving the re-checks of a channel the bot cannot post in); `stop()` stops both.
 */
export async function startAdapterPipeline<Fake, Adapter extends TestAdapter>(
  fake: Fake,
  adapter: Adapter,
  options: Omit<PipelineOptions, 'posters' | 'access'>,
): Promise<AdapterPipeline<Fake, Adapter>> {
  const h = await startPipeline({
    ...options,
    posters: [adapter.poster],
    access: { [adapter.poster.platform]: adapter.channelAccess },
  });
  return {
    ...h,
    fake,
    adapter,
    async stop() {
      await h.stop();
      await adapter.stop();
    },
  };
}
