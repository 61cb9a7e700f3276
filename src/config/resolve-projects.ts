import { ApiKeyFormatError, PROJECT_KEY_PREFIX, type ProjectKey, parseProjectKey } from '../api/index.js';
import type { ConfigProblem } from './config-problem.js';
import type { ProjectConfig } from './config-types.js';
import { type Env, readEnv } from './env-vars.js';
import { configFileSchema } from './schema.js';

/**
 * The configured projects with their keys. `secretFiles`: the variables read from a `*_FILE` twin
 * (expandSecretFiles), so a key's file is known without a second look-up in the environment: each
 * look-up scans it, and a twin that is not there scans all of it (3,000 projects, each its own key
 * variable: ~85 ms of a replica's start, bench scaleRedis).
 */
export function resolveProjects(
  env: Env,
  secretFiles: ReadonlyMap<string, string>,
  raw: unknown,
  problems: ConfigProblem[],
): ProjectConfig[] | undefined {
  if (!Array.isArray(raw)) return undefined;
  const projectSchema = configFileSchema.shape.projects.element;
  const resolved: ProjectConfig[] = [];
  const seenCaptions = new Map<string, number>();
  const seenEnv = new Map<string, number>();
  let complete = true;
  raw.forEach((item: unknown, index) => {
    const parsed = projectSchema.safeParse(item);
    if (!parsed.success) {
      complete = false;
      return;
    }
    const project = parsed.data;
    const at = `projects[${index}]`;
    const caption = project.linkCaption.toLowerCase();
    const firstCaption = seenCaptions.get(caption);
    if (firstCaption !== undefined) {
      problems.push({
        code: 'duplicate',
        path: `${at}.linkCaption`,
        message: `"${project.linkCaption}" is already listed as projects[${firstCaption}]`,
        fix: 'list each project once',
      });
      complete = false;
    } else seenCaptions.set(caption, index);
    const firstEnv = seenEnv.get(project.apiKeyEnv);
    if (firstEnv !== undefined) {
      problems.push({
        code: 'duplicate',
        path: `${at}.apiKeyEnv`,
        message: `${project.apiKeyEnv} is already the key variable of projects[${firstEnv}]`,
        fix: 'a Project API key works for one project only: give each project its own key and variable',
      });
      complete = false;
    } else seenEnv.set(project.apiKeyEnv, index);

    const apiKey = resolveProjectKey(
      env,
      project.linkCaption,
      project.apiKeyEnv,
      `${at}.apiKeyEnv`,
      problems,
    );
    if (apiKey === undefined) {
      complete = false;
      return;
    }
    const apiKeyFile = secretFiles.get(project.apiKeyEnv);
    resolved.push({
      linkCaption: project.linkCaption,
      apiKeyEnv: project.apiKeyEnv,
      apiKey,
      milestones: project.milestones,
      ...(apiKeyFile !== undefined ? { apiKeyFile } : {}),
    });
  });
  return complete ? resolved : undefined;
}

export const KEY_SOURCE = 'project administration → API keys';

function resolveProjectKey(
  env: Env,
  linkCaption: string,
  name: string,
  path: string,
  problems: ConfigProblem[],
): ProjectKey | undefined {
  const raw = readEnv(env, name);
  if (raw === undefined) {
    problems.push({
      code: 'env_missing',
      path,
      message: `${name} is not set`,
      fix: `export it with the Project API key of "${linkCaption}" from ${KEY_SOURCE} (scopes: project:read, fundings:read, incentives:read, blog:read, wall:read)`,
    });
    return undefined;
  }
  const wrapped = describeWrappedKey(raw);
  if (wrapped !== undefined) {
    problems.push({
      code: 'key_format',
      path,
      message: `${name} ${wrapped}`,
      fix: `set only the key itself (${PROJECT_KEY_PREFIX}…): fundbot adds the Authorization header, and a copied space or line break makes the API reject it`,
    });
    return undefined;
  }
  if (!raw.startsWith(PROJECT_KEY_PREFIX)) {
    const userKey = raw.startsWith('svc_user_');
    problems.push({
      code: 'key_format',
      path,
      message: `${name} has a wrong prefix: a Project API key starts with ${PROJECT_KEY_PREFIX}…${userKey ? ', this is a User API key (svc_user_…)' : ''}`,
      fix: `export the Project API key of "${linkCaption}" from ${KEY_SOURCE}`,
    });
    return undefined;
  }
  try {
    return parseProjectKey(raw);
  } catch (error) {
    // ApiKeyFormatError messages never contain the value (src/api/credentials.ts).
    if (!(error instanceof ApiKeyFormatError)) throw error;
    problems.push({
      code: 'key_format',
      path,
      message: `${name} is not a valid Project API key`,
      fix: error.message,
    });
    return undefined;
  }
}

/** What wraps a key that is otherwise fine: a copied "Bearer " or blanks around it. */
export function describeWrappedKey(raw: string): string | undefined {
  if (/^\s*bearer\s+/i.test(raw))
    return 'starts with "Bearer ": that is the header fundbot sends, not part of the key';
  if (/^\s/.test(raw)) return 'starts with a space or line break';
  if (/\s$/.test(raw)) return 'ends with a space or line break';
  return undefined;
}
