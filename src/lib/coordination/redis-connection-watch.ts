import type { Clock } from '../clock.js';
import { AbsenceTracker, type ConnectionWatch, RECONNECT_GRACE_MS } from './connection-watch.js';

/** The slice of a node-redis client the watch needs: raw commands and the (re)connection event. */
export interface ConnectionWatchClient {
  sendCommand(args: string[]): Promise<unknown>;
  on(event: 'ready', listener: () => void): unknown;
}

/** The name a replica's connection carries: `fundbot:<id>`, with anything CLIENT SETNAME refuses replaced. */
export const connectionNameOf = (replica: string): string =>
  `fundbot:${replica.replace(/[^\x21-\x7e]/g, '_')}`;

/** The `name=` fields of `CLIENT LIST` (one line per connection, `key=value` fields separated by spaces). */
export function connectionNames(clientList: string): Set<string> {
  const names = new Set<string>();
  for (const line of clientList.split('\n')) {
    const field = line.split(' ').find((part) => part.startsWith('name='));
    if (field !== undefined && field.length > 'name='.length) names.add(field.slice('name='.length));
  }
  return names;
}

export interface RedisConnectionWatchOptions {
  readonly client: ConnectionWatchClient;
  readonly self: string;
  readonly clock: Clock;
  readonly graceMs?: number;
  /** Told when the watch starts or stops working (CLIENT refused, a proxy, its name back in view), and why. */
  readonly onChange?: (watched: boolean, reason: string) => void;
}

/**
 * The connection watch on Redis: names this replica's connection (`CLIENT SETNAME`, again after every
 * reconnect) and reads the server's connections (`CLIENT LIST TYPE normal`) at every look. A replica is
 * watched only while it sees its own name there: behind a proxy (twemproxy, Envoy: CLIENT LIST lists the
 * proxy's connections or is refused) or on a managed Redis with CLIENT disabled it is not, says so once, and
 * the fleet judges it by its beat alone (the lease TTL is the last resort). Never unsafe: a replica wrongly
 * judged gone loses its leases, and its commits with their old tokens are refused by the fenced write.
 *
 * Cost per look: one CLIENT LIST, about 300 B per connection to the server (a fleet of 3 replicas: ~1 KB).
 */
export function redisConnectionWatch(options: RedisConnectionWatchOptions): ConnectionWatch {
  const { client, self, clock } = options;
  const ownName = connectionNameOf(self);
  const absences = new AbsenceTracker(clock, options.graceMs ?? RECONNECT_GRACE_MS);
  let watched = false;
  let told: boolean | undefined;
  let setNameError: string | undefined;
  const settle = (now: boolean, reason: string) => {
    watched = now;
    if (!now) absences.reset();
    if (told !== now) options.onChange?.(now, reason);
    told = now;
  };
  const message = (error: unknown) => (error instanceof Error ? error.message : String(error));
  const name = () => {
    client.sendCommand(['CLIENT', 'SETNAME', ownName]).then(
      () => {
        setNameError = undefined;
      },
      (error: unknown) => {
        setNameError = `CLIENT SETNAME failed: ${message(error)}`;
      },
    );
  };
  client.on('ready', name);
  name();
  return {
    get watched() {
      return watched;
    },
    async gone(replicas) {
      let list: unknown;
      try {
        list = await client.sendCommand(['CLIENT', 'LIST', 'TYPE', 'normal']);
      } catch (error) {
        // Refused (a proxy, CLIENT disabled) or Redis unreachable: nobody is judged by what cannot be seen.
        settle(false, `CLIENT LIST failed: ${message(error)}`);
        return [];
      }
      const names = connectionNames(String(list));
      if (!names.has(ownName)) {
        settle(false, setNameError ?? `no connection is named ${ownName} (a proxy in between?)`);
        return [];
      }
      settle(true, `the server lists this replica's connection as ${ownName}`);
      return absences.judge(replicas, (replica) => names.has(connectionNameOf(replica)));
    },
  };
}
