/**
 * The layer table: which folder of src/ may import which, and which packages only which folders may import.
 * `npm run lint:rules` writes biome.jsonc's layer overrides from it (architecture/lint-rules.ts);
 * test/architecture/layer-table.test.ts fails when the two drift. Edit this table, never the generated overrides.
 * Inside src/engine the stage folders have rules of their own (one way, no arrow back up): architecture/engine-folders.ts.
 */

// biome-ignore format: the names on three lines
export type LayerName =
  | 'lib' | 'lib/coordination' | 'api' | 'domain' | 'engine' | 'core' | 'delivery' | 'digest'
  | 'adapters/discord' | 'adapters/slack' | 'adapters/console' | 'simulator' | 'config' | 'ops' | 'app';

export interface Layer {
  /** Its files; a folder nested in another layer's folder is carved out of that layer. */
  readonly files: readonly string[];
  /** The layers it may import ('*': all); every other layer is refused. A layer may always import itself. */
  readonly may: readonly LayerName[] | '*';
  /** Why another layer may not import this one, in the words of the refusal. */
  readonly about: string;
  /** Importers that may import it reach it only through this file (its public surface). */
  readonly surface?: string;
  /** Imports nothing outside this folder (no `../` past it): the innermost layer. */
  readonly within?: string;
  /** No I/O: the packages in `ioPackages` are refused. */
  readonly pure?: true;
  /** A narrower surface of an allowed layer (simulator: the wire schemas, never the client). */
  readonly through?: Partial<Record<LayerName, string>>;
  /** A reason of this layer's own for refusing one layer, instead of that layer's `about`. */
  readonly why?: Partial<Record<LayerName, string>>;
}

const platform =
  'each platform is one folder that depends only on the core; share code through src/core or src/lib';

// biome-ignore format: the table reads best one layer to a line
export const layers: Readonly<Record<LayerName, Layer>> = {
  lib: { files: ['src/lib/**'], may: [], within: 'src/lib', about: 'Clock, Random, KeyValueStore, backoff, scrubber' },
  'lib/coordination': { files: ['src/lib/coordination/**'], may: ['lib'], within: 'src/lib', about: 'Redis leases and claims' },
  api: { files: ['src/api/**'], may: ['lib'], surface: 'index.js', about: 'the API client (transport, credentials, budget) is built by src/app and handed in' },
  domain: { files: ['src/domain/**'], may: ['api', 'lib'], pure: true, about: 'src/domain is the shared vocabulary and sits just above src/api' },
  engine: { files: ['src/engine/**'], may: ['api', 'domain', 'lib'], about: 'the engine (polling, diffing, outbox) is reached only through the ports in src/domain, which src/app wires' },
  core: { files: ['src/core/**'], may: ['api', 'domain', 'lib'], surface: 'index.js', about: 'the core (commands, notices, i18n) is reached only through the ports in src/domain or src/core/index.ts' },
  delivery: {
    files: ['src/delivery/**'], may: ['core', 'domain', 'lib'], surface: 'index.js',
    about: "the delivery pipeline (placement, claim, render, post, confirm) is an outer layer that depends on src/core and src/domain; src/app wires it to the engine's outbox and the adapters",
    why: { api: "delivery works on events (src/domain) and channels; what it needs of the platform API comes through the engine's events" },
  },
  digest: { files: ['src/digest/**'], may: ['api', 'core', 'delivery', 'domain', 'lib'], about: 'the digest is an outer layer beside the adapters, wired by src/app' },
  'adapters/discord': { files: ['src/adapters/discord/**'], may: ['api', 'core', 'delivery', 'domain', 'lib'], about: platform },
  'adapters/slack': { files: ['src/adapters/slack/**'], may: ['api', 'core', 'delivery', 'domain', 'lib'], about: platform },
  'adapters/console': { files: ['src/adapters/console/**'], may: ['api', 'core', 'delivery', 'domain', 'lib'], about: platform },
  simulator: {
    files: ['src/simulator/**'], may: ['api', 'lib'], through: { api: 'schemas/index.js' },
    about: 'the simulator is a fake of the platform for tests, the demo and the bench; production code never depends on it',
    why: { api: 'the simulator stands in for the platform: it may share the wire schemas but never the client (transport, credentials, budget), or a client bug would be mirrored by its own fake' },
  },
  config: { files: ['src/config/**'], may: ['api', 'core', 'domain', 'lib', 'ops'], about: 'configuration is read in the composition root (src/app, src/config) and passed in as plain values' },
  ops: {
    files: ['src/ops/**'], may: ['domain', 'lib'],
    about: 'src/ops (pino logger, metrics, health server) is wired by src/app; use the Logger port in src/domain/logger.ts',
    why: { api: 'the API client is built by src/app; src/ops reports on it through the values and callbacks it is handed' },
  },
  app: { files: ['src/app/**', 'src/main.ts', 'src/healthcheck.ts'], may: '*', about: 'src/app and src/main.ts are the composition root: nothing imports them' },
};

/** Dependencies point inwards: adapters depend on the core, never the reverse; src/app wires them. */
export const adaptersAbout =
  'dependencies point inwards: adapters depend on the core, never the reverse; src/app wires them';

/** Packages (and their subpaths) only their owners, and the folders nested in them, may import. */
// biome-ignore format: one package rule to a line
export const packageOwners: readonly { packages: readonly string[]; owners: readonly LayerName[]; why: string }[] = [
  { packages: ['discord.js', '@discordjs/**'], owners: ['adapters/discord'], why: 'every other layer speaks NeutralMessage and CommandInvocation (src/core), so a platform stays one folder. Move this code into the Discord adapter, or pass what you need in through a port' },
  { packages: ['@slack/**'], owners: ['adapters/slack'], why: 'every other layer speaks NeutralMessage and CommandInvocation (src/core), so a platform stays one folder. Move this code into the Slack adapter, or pass what you need in through a port' },
  { packages: ['pino', 'pino-pretty'], owners: ['ops'], why: 'every other layer logs through the Logger port (src/domain/logger.ts)' },
  { packages: ['prom-client'], owners: ['ops', 'app'], why: 'metrics are registered where the process is wired; other layers report through callbacks they are handed' },
  { packages: ['keyv', '@keyv/**', 'better-sqlite3'], owners: ['lib'], why: 'the store sits behind the KeyValueStore port (src/lib/store-port.ts)' },
  { packages: ['node-cron', '@napi-rs/canvas'], owners: ['digest'], why: "the schedule and the chart are the digest's" },
  { packages: ['jsonc-parser'], owners: ['config'], why: 'config files are parsed in one place' },
  { packages: ['entities'], owners: ['domain'], why: 'HTML entities are decoded in one place (src/domain/text.ts)' },
];

const ioModules = [
  'fs',
  'fs/promises',
  'net',
  'http',
  'https',
  'http2',
  'dgram',
  'dns',
  'dns/promises',
  'tls',
];
const processModules = ['child_process', 'worker_threads', 'readline'];

/** I/O that a `pure` layer may not import, by either name (owned packages are refused by their owners' rule). */
export const ioPackages: readonly string[] = [
  ...[...ioModules, ...processModules].flatMap((name) => [`node:${name}`, name]),
  'undici',
];

/** The root commands/ folder holds the registration scripts, which import src/, never the reverse. */
export const commandsFolder = ['../../commands/**', '../../../commands/**', '../../../../commands/**'];
