/**
 * What the request pipeline reads from the simulator. In its own module so the
 * endpoint, fault and rate-limit modules can take it without importing the
 * pipeline that imports them.
 */
import type { Clock } from '../lib/clock.js';
import type { Random } from '../lib/random.js';
import type { FaultInjector } from './faults.js';
import type { KeyRegistry } from './keys.js';
import type { NameGenerator } from './names.js';
import type { RateLimiter } from './rate-limiter.js';
import type { SimProject } from './sim-project.js';
import type { ListOrder, OtherKeyProjectPage, RateLimits, RequestLogEntry, ServedReply } from './types.js';
import type { UserRegistry } from './users.js';

/** Everything the request pipeline reads from the simulator. */
export interface HandlerState {
  readonly clock: Clock;
  readonly keys: KeyRegistry;
  readonly users: UserRegistry;
  readonly names: NameGenerator;
  readonly limiter: RateLimiter;
  readonly faults: FaultInjector;
  /** Randomness of the server itself (sort=rand). */
  readonly random: Random;
  readonly publicBaseUrl: string;
  limits(): RateLimits;
  listOrder(): ListOrder;
  otherKeyProjectPage(): OtherKeyProjectPage;
  projectByCaption(linkCaption: string): SimProject | undefined;
  allProjects(): Iterable<SimProject>;
  openApiDocument(): unknown;
  log(entry: RequestLogEntry): void;
  /** Told every reply as it is sent (SimulatorOptions.onReply). */
  served(reply: ServedReply): void;
  /** Real-time delay for the `slow` fault; resolves early (with false) when the simulator closes. */
  delay(ms: number): Promise<boolean>;
}
