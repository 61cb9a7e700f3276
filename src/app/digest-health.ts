import type { DeliveryObserver } from '../delivery/index.js';
import { channelKey } from '../domain/channels.js';
import type { HealthMonitor } from '../ops/index.js';

/** The digest's health: a channel whose latest digest post failed is named by /healthz until one lands. */
export function digestHealthObserver(health: Pick<HealthMonitor, 'recordDigest'>): DeliveryObserver {
  return {
    posted: ({ kind, id, channel }) => {
      if (kind === 'digest') health.recordDigest(digestTarget(id, channel), undefined);
    },
    failed: ({ kind, id, channel, how, error }) => {
      if (kind === 'digest' && id !== undefined && how !== 'rate-limited')
        health.recordDigest(digestTarget(id, channel), `${how}: ${error}`);
    },
  };
}

/** `<project> <channel>` of a digest delivery (its id is `digest:<project>:<date>`; a link caption has no colon). */
function digestTarget(id: string, channel: Parameters<typeof channelKey>[0]): string {
  return `${id.split(':')[1]} ${channelKey(channel)}`;
}
