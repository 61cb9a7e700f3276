import type { Probe } from './probe.js';

const refused = (path: string, code: string, says: string): Probe => ({
  path,
  code,
  rule: 'noRestrictedImports',
  says,
});
const allowed = (path: string, code: string): Probe => ({ path, code, rule: null });

/**
 * The violations issue 31 names, planted by hand (the table-driven matrix in layer-table.test.ts plants the rest),
 * and the rules the layer table added: packages only their owners import, src/lib/coordination, src/healthcheck.ts.
 */
export const tableProbes: readonly Probe[] = [
  // Engine and core never import each other; the core never reaches delivery or an adapter.
  refused(
    'src/engine/probe-core-deep.ts',
    "import '../core/command-core.js';\n",
    'src/engine must not import src/core',
  ),
  refused(
    'src/core/probe-delivery-deep.ts',
    "import '../delivery/notice-router.js';\n",
    'src/core must not import src/delivery',
  ),
  refused(
    'src/core/probe-adapter.ts',
    "import '../adapters/discord/index.js';\n",
    'src/core must not import src/adapters',
  ),
  refused(
    'src/core/notices/probe-adapter.ts',
    "import '../../adapters/slack/index.js';\n",
    'src/core must not import src/adapters',
  ),
  // A folder reaching into another's internals instead of its index.
  refused(
    'src/adapters/console/probe-deep-delivery.ts',
    "import '../../delivery/ports.js';\n",
    "'../../delivery/index.js'",
  ),
  refused('src/digest/probe-deep-api.ts', "import '../api/schemas/index.js';\n", "'../api/index.js'"),
  // The composition root's files: nothing imports them.
  refused(
    'src/core/probe-healthcheck.ts',
    "import '../healthcheck.js';\n",
    'src/core must not import src/app',
  ),
  refused('src/engine/probe-main.ts', "import '../main.js';\n", 'src/engine must not import src/app'),
  // src/lib/coordination: src/lib's subfolder imports src/lib and nothing else.
  refused(
    'src/lib/coordination/probe-domain.ts',
    "import '../../domain/events.js';\n",
    'src/lib/coordination',
  ),
  refused('src/lib/coordination/probe-slack.ts', "import '@slack/bolt';\n", 'Only src/adapters/slack'),
  // Packages only their owners import.
  refused('src/core/probe-pino.ts', "import 'pino';\n", 'Only src/ops may import pino'),
  refused('src/engine/probe-keyv.ts', "import 'keyv';\n", 'Only src/lib may import keyv'),
  refused('src/app/probe-sqlite.ts', "import 'better-sqlite3';\n", 'Only src/lib may import'),
  refused('src/delivery/probe-cron.ts', "import 'node-cron';\n", 'Only src/digest may import node-cron'),
  refused('src/core/probe-entities.ts', "import 'entities/decode';\n", 'Only src/domain may import'),
  refused('src/app/probe-jsonc.ts', "import 'jsonc-parser';\n", 'Only src/config may import jsonc-parser'),
  refused(
    'src/digest/probe-prom.ts',
    "import 'prom-client';\n",
    'Only src/ops and src/app may import prom-client',
  ),
  refused('src/domain/probe-http.ts', "import 'node:http';\n", 'src/domain is pure'),
  // Controls: the owners and the allowed edges stay allowed.
  allowed(
    'src/lib/coordination/probe-allowed.ts',
    "import '../clock.js';\nimport 'keyv';\nimport '@keyv/redis';\n",
  ),
  allowed(
    'src/ops/probe-allowed.ts',
    "import 'pino';\nimport 'prom-client';\nimport '../domain/logger.js';\n",
  ),
  allowed(
    'src/config/probe-allowed.ts',
    "import 'jsonc-parser';\nimport '../ops/index.js';\nimport '../core/index.js';\n",
  ),
  allowed(
    'src/digest/probe-owned.ts',
    "import 'node-cron';\nimport '@napi-rs/canvas';\nimport '../delivery/index.js';\n",
  ),
  allowed(
    'src/domain/probe-allowed.ts',
    "import 'entities';\nimport '../api/index.js';\nimport '../lib/clock.js';\n",
  ),
  allowed(
    'src/adapters/console/probe-allowed.ts',
    "import '../../delivery/index.js';\nimport '../../api/index.js';\n",
  ),
];
