import type { Probe } from './probe.js';

/** One planted import per layer edge that biome.jsonc's LAYER overrides must refuse (noRestrictedImports). */
export const layerProbes: readonly Probe[] = [
  // src/lib: innermost, imports no other fundbot folder and no platform SDK.
  {
    path: 'src/lib/probe-folder.ts',
    code: "import '../domain/events.js';\n",
    rule: 'noRestrictedImports',
    says: 'src/lib is the innermost layer',
  },
  {
    path: 'src/lib/probe-discord.ts',
    code: "import 'discord.js';\n",
    rule: 'noRestrictedImports',
    says: 'Only src/adapters/discord',
  },
  // src/api: the override that once let discord.js and @slack/bolt through.
  {
    path: 'src/api/probe-discord.ts',
    code: "import type { Client } from 'discord.js';\nexport type Probe = Client;\n",
    rule: 'noRestrictedImports',
    says: 'Only src/adapters/discord',
  },
  {
    path: 'src/api/probe-slack.ts',
    code: "import '@slack/bolt';\n",
    rule: 'noRestrictedImports',
    says: 'Only src/adapters/slack',
  },
  {
    path: 'src/api/probe-engine.ts',
    code: "import '../engine/index.js';\n",
    rule: 'noRestrictedImports',
    says: 'src/api must not import src/engine',
  },
  {
    path: 'src/api/schemas/probe-domain.ts',
    code: "import '../../domain/events.js';\n",
    rule: 'noRestrictedImports',
    says: 'src/api must not import src/domain',
  },
  // src/domain: pure, only api (through its index) and lib.
  {
    path: 'src/domain/probe-fs.ts',
    code: "import 'node:fs';\n",
    rule: 'noRestrictedImports',
    says: 'src/domain is pure',
  },
  {
    path: 'src/domain/probe-undici.ts',
    code: "import 'undici';\n",
    rule: 'noRestrictedImports',
    says: 'src/domain is pure',
  },
  {
    path: 'src/domain/probe-engine.ts',
    code: "import '../engine/index.js';\n",
    rule: 'noRestrictedImports',
    says: 'src/domain must not import src/engine',
  },
  {
    path: 'src/domain/probe-deep-api.ts',
    code: "import '../api/schemas/index.js';\n",
    rule: 'noRestrictedImports',
    says: "'../api/index.js'",
  },
  // src/engine and src/core never import each other.
  {
    path: 'src/engine/probe-core.ts',
    code: "import '../core/index.js';\n",
    rule: 'noRestrictedImports',
    says: 'src/engine must not import src/core',
  },
  {
    path: 'src/engine/probe-digest.ts',
    code: "import '../digest/index.js';\n",
    rule: 'noRestrictedImports',
    says: 'src/engine must not import src/digest',
  },
  {
    path: 'src/engine/probe-deep-api.ts',
    code: "import '../api/http-transport.js';\n",
    rule: 'noRestrictedImports',
    says: "'../api/index.js'",
  },
  {
    path: 'src/core/probe-engine.ts',
    code: "import '../engine/engine.js';\n",
    rule: 'noRestrictedImports',
    says: 'src/core must not import src/engine',
  },
  {
    path: 'src/core/commands/probe-engine.ts',
    code: "import '../../engine/index.js';\n",
    rule: 'noRestrictedImports',
    says: 'src/core must not import src/engine',
  },
  {
    path: 'src/core/probe-deep-api.ts',
    code: "import '../api/http-transport.js';\n",
    rule: 'noRestrictedImports',
    says: "'../api/index.js'",
  },
  {
    path: 'src/core/probe-slack.ts',
    code: "import '@slack/web-api';\n",
    rule: 'noRestrictedImports',
    says: 'Only src/adapters/slack',
  },
  {
    path: 'src/core/probe-commands.ts',
    code: "import '../../commands/register-discord.js';\n",
    rule: 'noRestrictedImports',
    says: 'root commands/ folder',
  },
  // Dynamic imports and re-exports are edges too.
  {
    path: 'src/core/probe-dynamic-import.ts',
    code: "export const load = () => import('discord.js');\n",
    rule: 'noRestrictedImports',
    says: 'Only src/adapters/discord',
  },
  {
    path: 'src/core/probe-reexport.ts',
    code: "export * from '../engine/index.js';\n",
    rule: 'noRestrictedImports',
    says: 'src/core must not import src/engine',
  },
  // src/digest: core and api through their index, never the engine or an adapter.
  // src/delivery: between the core and the adapters; the core and the engine never reach it.
  {
    path: 'src/core/probe-delivery.ts',
    code: "import '../delivery/index.js';\n",
    rule: 'noRestrictedImports',
    says: 'src/core must not import src/delivery',
  },
  {
    path: 'src/engine/probe-delivery.ts',
    code: "import '../delivery/index.js';\n",
    rule: 'noRestrictedImports',
    says: 'src/engine must not import src/delivery',
  },
  {
    path: 'src/delivery/probe-engine.ts',
    code: "import '../engine/index.js';\n",
    rule: 'noRestrictedImports',
    says: 'src/delivery must not import src/engine',
  },
  {
    path: 'src/delivery/probe-deep-core.ts',
    code: "import '../core/ports.js';\n",
    rule: 'noRestrictedImports',
    says: "'../core/index.js'",
  },
  {
    path: 'src/delivery/probe-adapter.ts',
    code: "import '../adapters/slack/index.js';\n",
    rule: 'noRestrictedImports',
    says: 'src/delivery must not import src/adapters',
  },
  {
    path: 'src/adapters/slack/probe-deep-delivery.ts',
    code: "import '../../delivery/notice-router.js';\n",
    rule: 'noRestrictedImports',
    says: "'../../delivery/index.js'",
  },
  {
    path: 'src/digest/probe-engine.ts',
    code: "import '../engine/index.js';\n",
    rule: 'noRestrictedImports',
    says: 'src/digest must not import src/engine',
  },
  {
    path: 'src/digest/probe-deep-core.ts',
    code: "import '../core/message.js';\n",
    rule: 'noRestrictedImports',
    says: "'../core/index.js'",
  },
  {
    path: 'src/digest/probe-adapter.ts',
    code: "import '../adapters/discord/index.js';\n",
    rule: 'noRestrictedImports',
    says: 'src/digest must not import src/adapters',
  },
  // Adapters: only the core (through its index); never another platform or adapter.
  {
    path: 'src/adapters/discord/probe-slack.ts',
    code: "import '@slack/bolt';\n",
    rule: 'noRestrictedImports',
    says: 'Only src/adapters/slack',
  },
  {
    path: 'src/adapters/discord/probe-other-adapter.ts',
    code: "import '../slack/index.js';\n",
    rule: 'noRestrictedImports',
    says: 'must not import src/adapters/slack',
  },
  {
    path: 'src/adapters/discord/probe-engine.ts',
    code: "import '../../engine/index.js';\n",
    rule: 'noRestrictedImports',
    says: 'src/adapters/discord must not import src/engine',
  },
  {
    path: 'src/adapters/discord/probe-deep-core.ts',
    code: "import '../../core/message.js';\n",
    rule: 'noRestrictedImports',
    says: "'../../core/index.js'",
  },
  {
    path: 'src/adapters/slack/probe-discord.ts',
    code: "import 'discord.js';\n",
    rule: 'noRestrictedImports',
    says: 'Only src/adapters/discord',
  },
  {
    path: 'src/adapters/slack/probe-ops.ts',
    code: "import '../../ops/logger.js';\n",
    rule: 'noRestrictedImports',
    says: 'src/adapters/slack must not import src/ops',
  },
  {
    path: 'src/adapters/console/probe-discord.ts',
    code: "import 'discord.js';\n",
    rule: 'noRestrictedImports',
    says: 'Only src/adapters/discord',
  },
  {
    path: 'src/adapters/console/probe-slack.ts',
    code: "import '@slack/bolt';\n",
    rule: 'noRestrictedImports',
    says: 'Only src/adapters/slack',
  },
  // The simulator shares the wire schemas only; config and ops stay out of the inner layers they do not need.
  {
    path: 'src/simulator/probe-client.ts',
    code: "import '../api/api-client.js';\n",
    rule: 'noRestrictedImports',
    says: 'never the client',
  },
  {
    path: 'src/simulator/probe-core.ts',
    code: "import '../core/index.js';\n",
    rule: 'noRestrictedImports',
    says: 'src/simulator must not import src/core',
  },
  {
    path: 'src/config/probe-engine.ts',
    code: "import '../engine/index.js';\n",
    rule: 'noRestrictedImports',
    says: 'src/config must not import src/engine',
  },
  {
    path: 'src/config/probe-deep-core.ts',
    code: "import '../core/command-core.js';\n",
    rule: 'noRestrictedImports',
    says: "'../core/index.js'",
  },
  {
    path: 'src/ops/probe-core.ts',
    code: "import '../core/index.js';\n",
    rule: 'noRestrictedImports',
    says: 'src/ops must not import src/core',
  },
  {
    path: 'src/ops/probe-api.ts',
    code: "import '../api/index.js';\n",
    rule: 'noRestrictedImports',
    says: 'src/ops must not import src/api',
  },
  {
    path: 'src/app/probe-discord.ts',
    code: "import 'discord.js';\n",
    rule: 'noRestrictedImports',
    says: 'Only src/adapters/discord',
  },
  {
    path: 'src/app/probe-deep-api.ts',
    code: "import '../api/http-transport.js';\n",
    rule: 'noRestrictedImports',
    says: "'../api/index.js'",
  },
];
