import type { ConfigProblem } from './config-problem.js';
import type { ReadTextFile } from './config-types.js';
import { type Env, readEnv, secretEnvVars } from './env-vars.js';

/** A secret file longer than this is something else (a certificate bundle, a log): refused, never used. */
const MAX_SECRET_FILE_CHARS = 16 * 1024;

/** The suffix of a variable naming a file that holds the secret (Docker and Kubernetes secrets). */
export const FILE_SUFFIX = '_FILE';

/**
 * Reads every secret given as a file: `SLACK_BOT_TOKEN_FILE=/run/secrets/slack` sets
 * `SLACK_BOT_TOKEN` to that file's content (one trailing line break removed, as
 * editors and `echo` add one). Only the secret variables have such a twin: the ones in
 * {@link secretEnvVars} and `projectKeyVars` (the configured projects' `apiKeyEnv`); any
 * other `*_FILE` variable is someone else's and is neither read nor checked. Setting both
 * `X` and `X_FILE` is a problem, as is a file that cannot be read; no problem text contains
 * the file's content. `files`: each variable that came from a file, and the file's path (a project key's
 * file is watched for rotation: src/app/watch-key-files.ts).
 */
export function expandSecretFiles(
  env: Env,
  readFile: ReadTextFile,
  projectKeyVars: readonly string[],
): { env: Env; files: ReadonlyMap<string, string>; problems: ConfigProblem[] } {
  const expanded: Record<string, string> = {};
  const files = new Map<string, string>();
  const problems: ConfigProblem[] = [];
  // The environment's names once, not one `process.env` read per key variable: with 3,000 projects the reads of
  // their absent `_FILE` twins and a copy of the environment cost each replica ~300 ms of CPU at start (bench
  // scaleRedis, issue 33). The environment is copied only when a file's secret goes into it.
  const fileVars = new Set(Object.keys(env).filter((name) => name.endsWith(FILE_SUFFIX)));
  for (const name of new Set([...secretEnvVars, ...projectKeyVars])) {
    const fileVar = `${name}${FILE_SUFFIX}`;
    if (!fileVars.has(fileVar)) continue;
    const path = readEnv(env, fileVar);
    if (path === undefined) continue;
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
      const secret = readFile(path).replace(/\r?\n$/, '');
      if (secret.length > MAX_SECRET_FILE_CHARS) {
        problems.push({
          code: 'env_invalid',
          path: `env ${fileVar}`,
          message: `names ${path}, which holds ${secret.length.toLocaleString('en')} characters: no secret is that long`,
          fix: `point ${fileVar} at the file holding only the secret (a Docker/Kubernetes secret), or set ${name} instead`,
        });
        continue;
      }
      expanded[name] = secret;
      files.set(name, path);
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
  return { env: Object.keys(expanded).length === 0 ? env : { ...env, ...expanded }, files, problems };
}
