import type { ConfigProblem } from './config-problem.js';
import type { ReadTextFile } from './config-types.js';
import { type Env, envVars, readEnv } from './env-vars.js';

/** Variables that never hold a secret: a `_FILE` twin of these means nothing. */
const NOT_SECRET: ReadonlySet<string> = new Set([
  envVars.config,
  envVars.apiBaseUrl,
  envVars.logLevel,
  envVars.port,
  envVars.healthHost,
  envVars.container,
  envVars.discordApplicationId,
  envVars.discordPublicKey,
  envVars.publicUrl,
]);

/** The suffix of a variable naming a file that holds the secret (Docker and Kubernetes secrets). */
export const FILE_SUFFIX = '_FILE';

/**
 * Reads every secret given as a file: `SLACK_BOT_TOKEN_FILE=/run/secrets/slack` sets
 * `SLACK_BOT_TOKEN` to that file's content (one trailing line break removed, as
 * editors and `echo` add one). Works for each secret variable, including the
 * per-project key variables. Setting both `X` and `X_FILE` is a problem, as is
 * a file that cannot be read; no problem text contains the file's content.
 */
export function expandSecretFiles(env: Env, readFile: ReadTextFile): { env: Env; problems: ConfigProblem[] } {
  const expanded: Record<string, string | undefined> = { ...env };
  const problems: ConfigProblem[] = [];
  for (const [fileVar, path] of Object.entries(env)) {
    if (!fileVar.endsWith(FILE_SUFFIX) || path === undefined || path === '') continue;
    const name = fileVar.slice(0, -FILE_SUFFIX.length);
    if (name === '' || NOT_SECRET.has(name)) continue;
    if (readEnv(env, name) !== undefined) {
      problems.push({
        code: 'env_invalid',
        path: `env ${fileVar}`,
        message: `${name} and ${fileVar} are both set`,
        fix: `keep one: ${fileVar} (a file holding the secret) or ${name} (the secret itself)`,
      });
      continue;
    }
    try {
      expanded[name] = readFile(path).replace(/\r?\n$/, '');
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      problems.push({
        code: 'env_invalid',
        path: `env ${fileVar}`,
        message: `names ${path}, which cannot be read (${typeof code === 'string' ? code : 'read error'})`,
        fix: `mount the secret file there (Docker/Kubernetes secret) readable by the user fundbot runs as, or set ${name} instead`,
      });
    }
  }
  return { env: expanded, problems };
}
