import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Clock, systemClock } from '../lib/clock.js';
import { type Random, seededRandom } from '../lib/random.js';
import { demoProjectSeed } from './demo-project.js';
import { type FaultControls, FaultInjector } from './faults.js';
import { IdSource } from './ids.js';
import { KeyRegistry } from './keys.js';
import { createNameGenerator, type NameGenerator } from './names.js';
import { buildOpenApiDocument, type OpenApiVariant } from './openapi.js';
import { defaultRateLimits, RateLimiter } from './rate-limiter.js';
import { createRequestHandler } from './request-handler.js';
import { SimProject, SimulatorUsageError } from './sim-project.js';
import type {
  ListOrder,
  OtherKeyProjectPage,
  ProjectPlan,
  ProjectScope,
  ProjectSeed,
  RateLimits,
  RequestLogEntry,
  SimUser,
  SimulatorOptions,
  UserScope,
} from './types.js';
import { projectScopes } from './types.js';
import { UserRegistry } from './users.js';

/** A running simulator of the crowdfunding platform on 127.0.0.1. */
export interface Simulator {
  /** Base URL without trailing slash, e.g. http://127.0.0.1:PORT */
  readonly url: string;
  readonly clock: Clock;
  /**
   * A Project API Key (`svc_proj_...`) for a project. Default: all seven project
   * scopes and the project's plan (pro when the project is unknown).
   */
  issueProjectKey(
    linkCaption: string,
    opts?: { scopes?: readonly ProjectScope[]; plan?: ProjectPlan },
  ): string;
  /** A User API Key (`svc_user_...`); `user:read` is always on. */
  issueUserKey(userId: number, opts?: { scopes?: readonly UserScope[] }): string;
  /** The key answers `invalid_api_key` from now on (disabled in the project administration). */
  revokeKey(key: string): void;
  /** A revoked key works again, with the scopes it had (enabled again). */
  restoreKey(key: string): void;
  /** The key's scopes from now on: an admin removed or added one. */
  setKeyScopes(key: string, scopes: readonly (ProjectScope | UserScope)[]): void;
  /** Live controls and ground truth of a project; throws when unknown. */
  project(linkCaption: string): SimProject;
  createProject(seed: ProjectSeed): SimProject;
  /** All projects, in creation order. */
  projects(): readonly SimProject[];
  /** The user account with this id (created with generated names when unknown). */
  user(userId: number): SimUser;
  updateUser(userId: number, fields: Partial<Omit<SimUser, 'id'>>): SimUser;
  readonly faults: FaultControls;
  /** Every request in arrival order, without credentials. */
  readonly requests: readonly RequestLogEntry[];
  resetRequestLog(): void;
  /** Order of the time-ordered lists; can be switched at runtime. */
  listOrder: ListOrder;
  /** What `GET /project/{lc}` answers another project's key; can be switched at runtime. */
  otherKeyProjectPage: OtherKeyProjectPage;
  /** Current limits (defaults of the spec merged with overrides). */
  readonly limits: RateLimits;
  /** Overrides limits from now on (counts so far are kept). */
  setLimits(limits: Partial<RateLimits>): void;
  /** Forgets all rate-limit counters. */
  resetRateLimits(): void;
  /** Serves a changed OpenAPI document (for drift detection tests). */
  setOpenApiVariant(variant: OpenApiVariant): void;
  /** Or any transformation of the baseline document; null restores the variant's document. */
  setOpenApiTransform(transform: ((doc: Record<string, unknown>) => Record<string, unknown>) | null): void;
  /** Closes the server and all connections; pending slow responses are dropped. */
  close(): Promise<void>;
}

/** Derives independent deterministic streams from one seed, so adding one use of randomness does not shift the others. */
function stream(seed: number, salt: number): Random {
  return seededRandom((Math.imul(seed ^ 0x5bd1e995, 0x27d4eb2d) + salt * 0x9e3779b9) >>> 0);
}

class SimulatorImpl implements Simulator {
  url = '';
  readonly clock: Clock;
  listOrder: ListOrder;
  otherKeyProjectPage: OtherKeyProjectPage;
  readonly faults: FaultInjector;
  readonly #server: Server;
  readonly #projects = new Map<string, SimProject>();
  readonly #ids = new IdSource();
  readonly #users: UserRegistry;
  readonly #names: NameGenerator;
  readonly #keys: KeyRegistry;
  readonly #limiter: RateLimiter;
  #limits: RateLimits;
  #requests: RequestLogEntry[] = [];
  #openApiVariant: OpenApiVariant = 'baseline';
  #openApiTransform: ((doc: Record<string, unknown>) => Record<string, unknown>) | null = null;
  readonly #openApiCache = new Map<OpenApiVariant, Record<string, unknown>>();
  readonly #pendingDelays = new Set<{ timer: NodeJS.Timeout; resolve: (completed: boolean) => void }>();
  readonly #publicBaseUrl: string;

  constructor(options: SimulatorOptions) {
    const seed = options.seed ?? 1;
    this.clock = options.clock ?? systemClock;
    this.listOrder = options.listOrder ?? 'newest-first';
    this.otherKeyProjectPage = options.otherKeyProjectPage ?? 'public-view';
    this.#limits = { ...defaultRateLimits, ...options.limits };
    this.#limiter = new RateLimiter(options.rateLimitDayOffsetMs ?? 0);
    this.#publicBaseUrl = (options.publicBaseUrl ?? 'https://crowdfunding.example').replace(/\/+$/, '');
    this.#names = createNameGenerator(stream(seed, 1));
    this.#users = new UserRegistry(this.#ids, this.#names, this.clock);
    this.#keys = new KeyRegistry(stream(seed, 2));
    this.faults = new FaultInjector(stream(seed, 3));
    const serverRandom = stream(seed, 4);
    const handler = createRequestHandler({
      clock: this.clock,
      keys: this.#keys,
      users: this.#users,
      names: this.#names,
      limiter: this.#limiter,
      faults: this.faults,
      random: serverRandom,
      publicBaseUrl: this.#publicBaseUrl,
      limits: () => this.#limits,
      listOrder: () => this.listOrder,
      otherKeyProjectPage: () => this.otherKeyProjectPage,
      projectByCaption: (lc) => this.#projects.get(lc),
      allProjects: () => this.#projects.values(),
      openApiDocument: () => this.#openApiDocument(),
      log: (entry) => this.#requests.push(entry),
      served: options.onReply ?? (() => {}),
      delay: (ms) => this.#delay(ms),
    });
    this.#server = createServer((req, res) => {
      handler(req, res).catch((error: unknown) => {
        // A bug in the simulator must show up in the test as a 500, not hang the client.
        if (!res.headersSent) {
          res.writeHead(500, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: 'server error', error_description: String(error) }));
        }
      });
    });
    for (const seedProject of options.projects ?? [demoProjectSeed(this.clock.now())])
      this.createProject(seedProject);
  }

  async listen(host: string, port: number): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.#server.once('error', reject);
      this.#server.listen(port, host, () => {
        this.#server.off('error', reject);
        resolve();
      });
    });
    const address = this.#server.address() as AddressInfo;
    const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    this.url = `http://${shownHost}:${address.port}`;
  }

  get requests(): readonly RequestLogEntry[] {
    return this.#requests;
  }

  get limits(): RateLimits {
    return this.#limits;
  }

  issueProjectKey(
    linkCaption: string,
    opts: { scopes?: readonly ProjectScope[]; plan?: ProjectPlan } = {},
  ): string {
    const plan = opts.plan ?? this.#projects.get(linkCaption)?.plan ?? 'pro';
    return this.#keys.issueProject(linkCaption, opts.scopes ?? projectScopes, plan);
  }

  issueUserKey(userId: number, opts: { scopes?: readonly UserScope[] } = {}): string {
    this.#users.get(userId);
    return this.#keys.issueUser(userId, opts.scopes ?? ['project:read']);
  }

  revokeKey(key: string): void {
    this.#keys.revoke(key);
  }

  restoreKey(key: string): void {
    this.#keys.restore(key);
  }

  setKeyScopes(key: string, scopes: readonly (ProjectScope | UserScope)[]): void {
    this.#keys.setScopes(key, scopes);
  }

  project(linkCaption: string): SimProject {
    const project = this.#projects.get(linkCaption);
    if (project === undefined) throw new SimulatorUsageError(`no simulated project '${linkCaption}'`);
    return project;
  }

  createProject(seed: ProjectSeed): SimProject {
    if (this.#projects.has(seed.linkCaption)) {
      throw new SimulatorUsageError(`project '${seed.linkCaption}' exists already`);
    }
    const project = new SimProject(seed, {
      clock: this.clock,
      ids: this.#ids,
      users: this.#users,
      names: this.#names,
      publicBaseUrl: this.#publicBaseUrl,
    });
    this.#projects.set(seed.linkCaption, project);
    return project;
  }

  projects(): readonly SimProject[] {
    return [...this.#projects.values()];
  }

  user(userId: number): SimUser {
    return this.#users.get(userId);
  }

  updateUser(userId: number, fields: Partial<Omit<SimUser, 'id'>>): SimUser {
    return this.#users.update(userId, fields);
  }

  resetRequestLog(): void {
    this.#requests = [];
  }

  setLimits(limits: Partial<RateLimits>): void {
    this.#limits = { ...this.#limits, ...limits };
  }

  resetRateLimits(): void {
    this.#limiter.reset();
  }

  setOpenApiVariant(variant: OpenApiVariant): void {
    this.#openApiVariant = variant;
  }

  setOpenApiTransform(transform: ((doc: Record<string, unknown>) => Record<string, unknown>) | null): void {
    this.#openApiTransform = transform;
  }

  async close(): Promise<void> {
    for (const pending of this.#pendingDelays) {
      clearTimeout(pending.timer);
      pending.resolve(false);
    }
    this.#pendingDelays.clear();
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    this.#server.closeAllConnections();
    await closed;
  }

  #openApiDocument(): unknown {
    // Built once per variant: the benchmark's drift checks should not pay for it on every request.
    let doc = this.#openApiCache.get(this.#openApiVariant);
    if (doc === undefined) {
      doc = buildOpenApiDocument(this.#openApiVariant);
      this.#openApiCache.set(this.#openApiVariant, doc);
    }
    return this.#openApiTransform === null ? doc : this.#openApiTransform(structuredClone(doc));
  }

  #delay(ms: number): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      const pending = {
        timer: setTimeout(() => {
          this.#pendingDelays.delete(pending);
          resolve(true);
        }, ms),
        resolve,
      };
      this.#pendingDelays.add(pending);
    });
  }
}

/**
 * Starts the simulator on `host:port` (default 127.0.0.1, ephemeral port) with
 * the given projects (default: the demo project `solar-kiosk`).
 */
export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const simulator = new SimulatorImpl(options);
  await simulator.listen(options.host ?? '127.0.0.1', options.port ?? 0);
  return simulator;
}
