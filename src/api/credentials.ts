import { createHash } from 'node:crypto';
import { inspect } from 'node:util';

/**
 * API credentials as opaque values.
 *
 * The secret lives in a module-private WeakMap, not on the object: it has no own
 * property, no `#field` a debugger-style inspector could reveal, and nothing that
 * `JSON.stringify`, spread, `structuredClone` or `util.inspect` could copy. Only
 * this package reads it back (to build the `Authorization` header).
 *
 * What a key shows of itself: the type, the public prefix and a fingerprint (the
 * first 8 hex digits of SHA-256 of the whole key), e.g. `ProjectKey(svc_proj_… #3f9a0c12)`.
 * No character of the secret part is shown: the common "last four characters"
 * would shrink the search space and, on short test keys, reveal most of it. The
 * fingerprint still lets an operator tell two configured keys apart in logs and
 * match a log line to a key (hash the key locally and compare).
 */

const secrets = new WeakMap<ApiKeyBase, string>();

export const PROJECT_KEY_PREFIX = 'svc_proj_';
export const USER_KEY_PREFIX = 'svc_user_';

/** Thrown by the parse functions. Never contains the raw value. */
export class ApiKeyFormatError extends TypeError {
  override readonly name = 'ApiKeyFormatError';
}

abstract class ApiKeyBase {
  /** Non-secret identifier: first 8 hex digits of SHA-256(key). Safe to log. */
  readonly fingerprint: string;
  readonly #label: string;

  protected constructor(secret: string, typeName: string, prefix: string) {
    secrets.set(this, secret);
    this.fingerprint = createHash('sha256').update(secret).digest('hex').slice(0, 8);
    this.#label = `${typeName}(${prefix}… #${this.fingerprint})`;
  }

  /** `ProjectKey(svc_proj_… #3f9a0c12)`: safe for logs and error messages. */
  toString(): string {
    return this.#label;
  }

  /** A key serialises to its redacted form, so it can never leak into JSON logs or stored state. */
  toJSON(): string {
    return this.#label;
  }

  [inspect.custom](): string {
    return this.#label;
  }
}

/**
 * A Project API Key (`svc_proj_…`): data of one project. Create with {@link parseProjectKey}.
 * The literal `kind` makes ProjectKey and UserKey incompatible types: one cannot be passed as the other.
 */
export class ProjectKey extends ApiKeyBase {
  readonly kind = 'project' as const;
  private constructor(secret: string) {
    super(secret, 'ProjectKey', PROJECT_KEY_PREFIX);
  }
  /** Same as {@link parseProjectKey}. */
  static parse(raw: string): ProjectKey {
    return new ProjectKey(validateShape(raw, PROJECT_KEY_PREFIX, 'the Project API key'));
  }
}

/** A User API Key (`svc_user_…`): the user's own and team projects. Create with {@link parseUserKey}. */
export class UserKey extends ApiKeyBase {
  readonly kind = 'user' as const;
  private constructor(secret: string) {
    super(secret, 'UserKey', USER_KEY_PREFIX);
  }
  /** Same as {@link parseUserKey}. */
  static parse(raw: string): UserKey {
    return new UserKey(validateShape(raw, USER_KEY_PREFIX, 'the User API key'));
  }
}

export type ApiKey = ProjectKey | UserKey;

function describeWrongPrefix(raw: string): string {
  // Only the known, public prefixes are ever named; anything else (say, a pasted password) is not echoed.
  if (raw.startsWith(PROJECT_KEY_PREFIX)) return `it is a Project API key (${PROJECT_KEY_PREFIX}…)`;
  if (raw.startsWith(USER_KEY_PREFIX)) return `it is a User API key (${USER_KEY_PREFIX}…)`;
  return 'it has neither prefix';
}

function validateShape(raw: unknown, prefix: string, what: string): string {
  if (typeof raw !== 'string' || raw.length === 0) {
    throw new ApiKeyFormatError(
      `${what} is missing or empty: set it to the key shown at creation (${prefix}…)`,
    );
  }
  if (/\s/.test(raw)) {
    throw new ApiKeyFormatError(
      `${what} contains whitespace (often a trailing newline or a space from copy and paste): remove it; the key itself is not shown here`,
    );
  }
  if (!raw.startsWith(prefix)) {
    throw new ApiKeyFormatError(
      `${what} must start with "${prefix}", but ${describeWrongPrefix(raw)}: check that the right key is configured`,
    );
  }
  const rest = raw.slice(prefix.length);
  // Header-safe visible ASCII only: anything else cannot travel in an Authorization header.
  if (rest.length === 0 || !/^[\x21-\x7e]+$/.test(rest)) {
    throw new ApiKeyFormatError(
      `${what} has no valid secret after "${prefix}" (empty, or characters outside visible ASCII): copy the whole key again`,
    );
  }
  return raw;
}

/** Validates a raw `svc_proj_…` string. Errors never contain the value. */
export function parseProjectKey(raw: string): ProjectKey {
  return ProjectKey.parse(raw);
}

/** Validates a raw `svc_user_…` string. Errors never contain the value. */
export function parseUserKey(raw: string): UserKey {
  return UserKey.parse(raw);
}

/** Picks the key type by prefix. Errors never contain the value. */
export function parseApiKey(raw: string): ProjectKey | UserKey {
  if (typeof raw === 'string' && raw.startsWith(USER_KEY_PREFIX)) return parseUserKey(raw);
  if (typeof raw === 'string' && raw.startsWith(PROJECT_KEY_PREFIX)) return parseProjectKey(raw);
  validateShape(raw, PROJECT_KEY_PREFIX, 'the API key');
  // validateShape throws for every value without a known prefix; this line is for the type checker.
  throw new ApiKeyFormatError(`the API key must start with "${PROJECT_KEY_PREFIX}" or "${USER_KEY_PREFIX}"`);
}

/**
 * The secret, for the transport only (the `Authorization` header and redaction of
 * server text). Not re-exported from the package index.
 * @internal
 */
export function revealSecret(key: ApiKey): string {
  const secret = secrets.get(key);
  if (secret === undefined) throw new TypeError('not an API key created by parseProjectKey/parseUserKey');
  return secret;
}
