import type { ConfigProblem } from './config-problem.js';
import { DEFAULT_CONFIG_PATH, type Env, envVars, readEnv } from './env-vars.js';
import {
  configPath,
  type FundbotConfig,
  parseConfig,
  type ReadTextFile,
  readConfigFile,
} from './load-config.js';
import { FILE_SUFFIX } from './secret-files.js';

/**
 * How the process should start:
 * - `demo`: no config file and no chat platform token: run the local demo (simulator + console);
 * - `bot`: a valid configuration;
 * - `invalid`: print {@link formatConfigProblems}(problems) and exit with status 1.
 */
export type StartMode =
  | { readonly mode: 'demo'; readonly reason: string }
  | { readonly mode: 'bot'; readonly config: FundbotConfig; readonly warnings: readonly ConfigProblem[] }
  | { readonly mode: 'invalid'; readonly source: string; readonly problems: readonly ConfigProblem[] };

/** Any of these set means "run the bot" (the client secret: Slack for many workspaces, which has no bot token). */
const PLATFORM_TOKENS = [
  envVars.discordToken,
  envVars.slackBotToken,
  envVars.slackAppToken,
  envVars.slackClientSecret,
] as const;

/**
 * Decides between demo and bot mode. A missing config file means "demo" only
 * when no platform token is set either: someone who exported `DISCORD_TOKEN`
 * meant to run the bot, and a silent demo would hide their missing file.
 *
 * @example
 * const start = resolveStartMode({ env: process.env, readFile: readTextFileSync });
 * if (start.mode === 'invalid') { console.error(formatConfigProblems(start.problems, start.source)); process.exit(1); }
 */
export function resolveStartMode(options: { env: Env; readFile: ReadTextFile }): StartMode {
  const { env } = options;
  const path = configPath(env);
  const read = readConfigFile(options.readFile, path);
  if (read.kind === 'error') return { mode: 'invalid', source: path, problems: [read.problem] };
  if (read.kind === 'missing' && readEnv(env, envVars.container) !== undefined) {
    // In a container the demo is never what was meant: there is no terminal to show it in.
    return {
      mode: 'invalid',
      source: path,
      problems: [
        {
          code: 'file_not_found',
          path,
          message: 'no config file in the container',
          fix: `mount one: docker run -v "$PWD/fundbot.config.json:${path}:ro" --env-file .env … (or the volumes entry of compose.yaml); start from fundbot.config.example.json, and pass the tokens and keys as environment variables or *_FILE secrets`,
        },
      ],
    };
  }
  if (read.kind === 'missing' && readEnv(env, envVars.config) !== undefined) {
    // Naming a file is asking for the bot: a typo in the path must not quietly start the demo.
    return {
      mode: 'invalid',
      source: path,
      problems: [
        {
          code: 'file_not_found',
          path: `env ${envVars.config}`,
          message: `names ${path}, which does not exist`,
          fix: `fix the path (or mount the file there), or unset ${envVars.config} to use ${DEFAULT_CONFIG_PATH} or, without a config and tokens, the demo`,
        },
      ],
    };
  }
  if (read.kind === 'missing') {
    const tokens = PLATFORM_TOKENS.filter(
      (name) => readEnv(env, name) !== undefined || readEnv(env, `${name}${FILE_SUFFIX}`) !== undefined,
    );
    if (tokens.length === 0) {
      return {
        mode: 'demo',
        reason: `no config file at ${path} and no chat platform token (${PLATFORM_TOKENS.join(', ')}): starting the local demo`,
      };
    }
    return {
      mode: 'invalid',
      source: path,
      problems: [
        {
          code: 'tokens_without_config',
          path,
          message: `${tokens.join(' and ')} ${tokens.length === 1 ? 'is' : 'are'} set but the config file does not exist`,
          fix: `copy fundbot.config.example.json to ${path} (or set ${envVars.config}) and list your projects there; unset the token${tokens.length === 1 ? '' : 's'} to run the demo instead`,
        },
      ],
    };
  }
  const result = parseConfig(read.text, { env, source: path, readFile: options.readFile });
  return result.ok
    ? { mode: 'bot', config: result.config, warnings: result.warnings }
    : { mode: 'invalid', source: path, problems: result.problems };
}
