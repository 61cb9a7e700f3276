import { Writable } from 'node:stream';
import { format, inspect } from 'node:util';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import {
  ApiKeyFormatError,
  type ProjectKey,
  parseApiKey,
  parseProjectKey,
  parseUserKey,
  type UserKey,
} from '../../src/api/index.js';

const PROJECT_SECRET = 'Pr0jS3cretValue9x8y7z6w5v';
const USER_SECRET = 'Us3rS3cretValue1a2b3c4d5e';
const RAW_PROJECT = `svc_proj_${PROJECT_SECRET}`;
const RAW_USER = `svc_user_${USER_SECRET}`;

function expectNoSecret(text: string, secret: string): void {
  expect(text).not.toContain(secret);
  // Not even a recognisable piece of it.
  expect(text).not.toContain(secret.slice(-4));
  expect(text).not.toContain(secret.slice(0, 6));
}

function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a throw');
}

describe('credentials', () => {
  it('a Project API key is recognised by the svc_proj_ prefix and a User API key by svc_user_', () => {
    expect(parseProjectKey(RAW_PROJECT).kind).toBe('project');
    expect(parseUserKey(RAW_USER).kind).toBe('user');
    expect(parseApiKey(RAW_PROJECT).kind).toBe('project');
    expect(parseApiKey(RAW_USER).kind).toBe('user');
  });

  it('a key with the wrong prefix is a clear error that does not echo the key', () => {
    for (const [parse, raw] of [
      [parseProjectKey, RAW_USER],
      [parseUserKey, RAW_PROJECT],
      [parseProjectKey, 'hunter2-my-password'],
      [parseApiKey, 'sk_live_abcdef123456'],
    ] as const) {
      const error = thrown(() => parse(raw));
      expect(error).toBeInstanceOf(ApiKeyFormatError);
      expect(error.message).toMatch(/must start with "svc_(proj|user)_"/);
      expectNoSecret(
        `${error.message}\n${error.stack}\n${inspect(error)}`,
        raw.replace(/^svc_(proj|user)_/, ''),
      );
    }
  });

  it('a key with whitespace is a clear error that does not echo the key', () => {
    for (const raw of [
      `${RAW_PROJECT}\n`,
      ` ${RAW_PROJECT}`,
      `svc_proj_${PROJECT_SECRET.slice(0, 8)} ${PROJECT_SECRET.slice(8)}`,
    ]) {
      const error = thrown(() => parseProjectKey(raw));
      expect(error).toBeInstanceOf(ApiKeyFormatError);
      expect(error.message).toContain('whitespace');
      expectNoSecret(`${error.message}\n${error.stack}`, PROJECT_SECRET);
    }
  });

  it('an empty key or a bare prefix is rejected', () => {
    expect(() => parseProjectKey('')).toThrow(ApiKeyFormatError);
    expect(() => parseProjectKey('svc_proj_')).toThrow(/no valid secret/);
    expect(() => parseUserKey('svc_user_\u00e9\u00e9')).toThrow(/visible ASCII/);
  });

  it('ProjectKey and UserKey are distinct types', () => {
    const project: ProjectKey = parseProjectKey(RAW_PROJECT);
    const user: UserKey = parseUserKey(RAW_USER);
    // @ts-expect-error a UserKey is not a ProjectKey
    const wrong: ProjectKey = user;
    // @ts-expect-error a ProjectKey is not a UserKey
    const wrong2: UserKey = project;
    expect(wrong.kind).not.toBe(project.kind);
    expect(wrong2.kind).not.toBe(user.kind);
  });

  it('a key never shows its secret in String(), template literals, util.inspect, util.format or JSON.stringify', () => {
    const key = parseProjectKey(RAW_PROJECT);
    const renderings = [
      String(key),
      `${key}`,
      inspect(key),
      inspect({ nested: { key } }, { depth: 10, showHidden: true }),
      format('%o %O %s %j', key, key, key, key),
      JSON.stringify(key),
      JSON.stringify({ key }),
      JSON.stringify({ ...key }),
      Object.keys(key).join(','),
      JSON.stringify(structuredClone({ fingerprint: key.fingerprint })),
    ];
    for (const text of renderings) expectNoSecret(text, PROJECT_SECRET);
    expect(String(key)).toMatch(/^ProjectKey\(svc_proj_… #[0-9a-f]{8}\)$/);
    expect(String(parseUserKey(RAW_USER))).toMatch(/^UserKey\(svc_user_… #[0-9a-f]{8}\)$/);
  });

  it('the same key parsed twice has the same fingerprint, different keys different ones', () => {
    expect(parseProjectKey(RAW_PROJECT).fingerprint).toBe(parseProjectKey(RAW_PROJECT).fingerprint);
    expect(parseProjectKey(RAW_PROJECT).fingerprint).not.toBe(parseProjectKey(`${RAW_PROJECT}X`).fingerprint);
  });

  it('a key logged with pino (as a field, nested, or in an error) shows no secret', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const logger = pino({ level: 'info' }, sink);
    const key = parseProjectKey(RAW_PROJECT);
    logger.info({ key, config: { projectKey: key } }, 'configured %s', key);
    logger.error({ err: Object.assign(new Error('boom'), { key }) }, 'failed');
    expect(lines.length).toBe(2);
    for (const line of lines) expectNoSecret(line, PROJECT_SECRET);
    expect(lines[0]).toContain('ProjectKey(svc_proj_…');
  });
});
