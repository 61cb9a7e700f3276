import type { ChannelRef } from '../domain/channels.js';
import type { CorrectionEvent } from '../domain/events.js';
import type { Clock } from '../lib/clock.js';
import type { DeliveryObserver } from './delivery-observer.js';
import type { NoticeTrace } from './notice-trace-store.js';

/**
 * The pipeline's observer with the delivery trace told what the ledger forgets: that a post went in doubt, how
 * the doubt ended. Every other report goes on to `observer` unchanged.
 */
export function withTraceObserver(
  observer: DeliveryObserver,
  trace: NoticeTrace,
  clock: Clock,
): DeliveryObserver {
  return {
    ...observer,
    failed(info) {
      if (info.how === 'doubt' && info.id !== undefined) {
        const since = clock.now();
        // The first doubt of a delivery is the one the channel waited for; a later one keeps it.
        trace.mark(info.channel, info.id, (e) => ({ ...e, doubtSince: e.doubtSince ?? since }));
      }
      observer.failed?.(info);
    },
    doubtResolved(info) {
      const outcome = info.outcome === 'found' ? 'found' : 'posted';
      trace.mark(info.channel, info.id, (e) => ({ ...e, doubtOutcome: outcome }));
      observer.doubtResolved?.(info);
    },
  };
}

/** A correction edited (or took back) a notice: the trace of its channel says so. */
export function traceCorrection(
  trace: NoticeTrace,
  clock: Clock,
  then?: (event: CorrectionEvent, channel: ChannelRef, how: 'edited' | 'unheld') => void,
) {
  return (event: CorrectionEvent, channel: ChannelRef, how: 'edited' | 'unheld') => {
    const at = clock.now();
    trace.mark(channel, event.originalEventId, (e) => ({ ...e, correctedAt: at }));
    then?.(event, channel, how);
  };
}
