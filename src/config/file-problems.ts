import type { z } from 'zod';
import { findSecretKind, scrubSecrets } from '../lib/scrub-secrets.js';
import { logFormats, logLevels } from '../ops/logger.js';
import type { ConfigProblem } from './config-problem.js';
import { envVars } from './env-vars.js';
import { KEY_SOURCE } from './resolve-projects.js';
import { configFileSchema } from './schema.js';

/* Problems found in the file itself: secrets where none belong, and schema issues with their fixes. */

const SECRET_FIXES: Record<string, string> = {
  'platform API key': `API keys are read only from the environment: name a variable in projects[].apiKeyEnv, export the key there and remove it from the file; since the key was written to disk, consider replacing it (${KEY_SOURCE})`,
  'Slack token': `move it to ${envVars.slackBotToken} and remove it from the file`,
  'Slack app token': `move it to ${envVars.slackAppToken} and remove it from the file`,
  'Discord token': `move it to ${envVars.discordToken} and remove it from the file`,
  'password in a URL': `set the URL with its password in ${envVars.store} and remove the password from the file`,
};

/** Only the store URL may carry a password, and only from the environment; elsewhere it has no place at all. */
function secretFix(kind: string, path: string): string {
  if (kind === 'password in a URL' && path !== 'store.url') {
    return path === 'api.baseUrl'
      ? 'remove user:password@ from the URL: the API takes no password, API keys come from projects[].apiKeyEnv'
      : 'remove the password from the URL';
  }
  return SECRET_FIXES[kind] ?? 'move the secret to an environment variable and remove it from the file';
}

/** Secret-shaped strings anywhere in the file (values and field names): the file is meant to be shareable. */
export function findSecretsInFile(raw: unknown, path: (string | number)[] = []): ConfigProblem[] {
  if (typeof raw === 'string') {
    const kind = findSecretKind(raw);
    if (kind === undefined) return [];
    return [
      {
        code: 'secret_in_file',
        path: formatPath(path),
        message: `holds what looks like a ${kind}; the config file must not contain secrets`,
        fix: secretFix(kind, formatPath(path)),
      },
    ];
  }
  if (Array.isArray(raw)) return raw.flatMap((item, i) => findSecretsInFile(item, [...path, i]));
  if (isRecord(raw)) {
    return Object.entries(raw).flatMap(([key, value]) => {
      const inKey = findSecretsInFile(key, [...path, '(a field name)']);
      return [...inKey, ...findSecretsInFile(value, [...path, key])];
    });
  }
  return [];
}

const SECRETISH_FIELD = /token|secret|password|apikey$|^key$/i;

export function issuesToProblems(issues: readonly z.core.$ZodIssue[]): ConfigProblem[] {
  return issues.flatMap((issue): ConfigProblem[] => {
    const path = formatPath(issue.path);
    if (issue.code === 'unrecognized_keys') {
      const known = knownFieldsAt(issue.path);
      // A secret used as a field name is already reported by findSecretsInFile, without the name.
      return issue.keys
        .filter((key) => findSecretKind(key) === undefined)
        .map((key) => {
          const suggestion = closest(key, known);
          const fix = SECRETISH_FIELD.test(key)
            ? 'secrets do not belong in the file: remove it and set the environment variable instead (see docs/configuration.md)'
            : suggestion
              ? `did you mean "${suggestion}"?`
              : `remove it; known fields here: ${known.join(', ') || 'none'}`;
          return {
            code: 'unknown_key',
            path: joinPath(path, key),
            message: 'unknown field',
            fix,
          };
        });
    }
    const missing = issue.code === 'invalid_type' && /received undefined$/.test(issue.message);
    return [
      {
        code: 'invalid_value',
        path,
        message: missing ? `is required (${issue.expected})` : describeIssue(issue),
        fix:
          FIELD_FIXES[genericPath(issue.path)] ??
          `see docs/configuration.md, section ${String(issue.path[0] ?? 'top level')}`,
      },
    ];
  });
}

/** zod's messages start with "Invalid input: …"; ours (from the schema) already say what is expected. */
function describeIssue(issue: z.core.$ZodIssue): string {
  const message = issue.message.replace(/^Invalid input: /, '');
  return message.charAt(0).toLowerCase() + message.slice(1);
}

const FIELD_FIXES: Record<string, string> = {
  projects: 'add {"linkCaption": "<slug>", "apiKeyEnv": "<VARIABLE>"} for each project to watch',
  'projects[].linkCaption': 'copy the slug from the project URL, e.g. "solar-kiosk"',
  'projects[].apiKeyEnv':
    'name the variable holding the key, e.g. "SOLAR_KIOSK_API_KEY", and export the key there',
  'projects[].milestones': 'list percentages of the goal, e.g. [25, 50, 100, 150]',
  'digest.time': 'write the local time as "HH:MM", e.g. "09:00" or "18:30"',
  'digest.timeZone': 'use an IANA time zone such as "Europe/Berlin" or "UTC"',
  'slack.mode': 'use "socket" (no public URL needed) or "http"',
  'slack.admins': 'list Slack member ids such as "U012ABCDEF"',
  'engine.reservePct': 'use a percentage between 0 and 90',
  locale: 'use "en" or "de"',
  logLevel: `use one of ${logLevels.join(', ')}`,
  logFormat: `use one of ${logFormats.join(', ')}`,
};

function genericPath(path: readonly PropertyKey[]): string {
  return formatPath(path.map((segment) => (typeof segment === 'number' ? '[]' : segment))).replace(
    /\.\[\]/g,
    '[]',
  );
}

export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (segment === '[]') out += '[]';
    // Field names come from the file: scrub them like any other text from it.
    else out = joinPath(out, scrubSecrets(String(segment)));
  }
  return out || '(top level)';
}

function joinPath(base: string, key: string): string {
  return base === '' || base === '(top level)' ? key : `${base}.${key}`;
}

/** Field names the schema knows at `path` (for "did you mean"). */
function knownFieldsAt(path: readonly PropertyKey[]): string[] {
  let schema: z.core.$ZodType = configFileSchema;
  const unwrap = (s: z.core.$ZodType): z.core.$ZodType => {
    const def = s._zod.def as { type: string; innerType?: z.core.$ZodType; in?: z.core.$ZodType };
    if (def.innerType) return unwrap(def.innerType);
    if (def.type === 'pipe' && def.in) return unwrap(def.in);
    return s;
  };
  for (const segment of path) {
    const def = unwrap(schema)._zod.def as {
      type: string;
      shape?: Record<string, z.core.$ZodType>;
      element?: z.core.$ZodType;
    };
    const next = typeof segment === 'number' ? def.element : def.shape?.[String(segment)];
    if (!next) return [];
    schema = next;
  }
  const shape = (unwrap(schema)._zod.def as { shape?: Record<string, unknown> }).shape;
  return shape ? Object.keys(shape) : [];
}

/** The known name within edit distance 2 (case-insensitive), if any. */
function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const candidate of candidates) {
    const d = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
