import { describe, expect, it } from 'vitest';
import {
  hintFor,
  type PlatformErrorCode,
  platformErrorCodes,
  type RequestContext,
} from '../../src/api/errors.js';
import { catalogFor, locales } from '../../src/core/i18n/index.js';
import { classifyReadFailure, explainReadFailure } from '../../src/core/read-failure.js';
import { note } from '../../src/domain/engine-notes.js';
import { type ErrorCode, errorCodes } from '../../src/domain/error-codes.js';
import {
  FeedDisabledError,
  LeaseLostError,
  ProjectNotWatchedError,
  ProjectPausedError,
} from '../../src/domain/errors.js';

/**
 * The one list of error codes (issue 31): every code fundbot raises is listed, every listed code is classified as
 * the list says and reads as a sentence in every language at the edge, and the platform's codes keep a fix.
 */
const context: RequestContext = {
  method: 'GET',
  path: '/projects/solar-kiosk',
  endpoint: 'project',
  credential: 'project',
  linkCaption: 'solar-kiosk',
};

const own = [
  new FeedDisabledError('solar-kiosk', 'wall', 'wall:read'),
  new ProjectNotWatchedError('solar-kiosk'),
  new LeaseLostError('solar-kiosk'),
  new ProjectPausedError('solar-kiosk', note('key-rejected', {})),
];

describe('the one list of error codes', () => {
  it("lists every code of fundbot's own errors", () => {
    for (const error of own) expect(Object.keys(errorCodes), error.name).toContain(error.code);
  });

  it('classifies each listed code as the list says, and reads it in every language', () => {
    for (const [code, entry] of Object.entries(errorCodes)) {
      const error = { code, status: entry.failure === 'not-permitted' ? 403 : 400 };
      expect(classifyReadFailure(error), code).toBe(entry.failure);
      for (const locale of locales) {
        const text = explainReadFailure(entry.failure, catalogFor(locale), 'NOT FOUND', error);
        expect(text, `${code} in ${locale}`).not.toBe('');
        if (entry.userText === 'notFound') expect(text).toBe('NOT FOUND');
      }
      expect(typeof entry.fix === 'string' ? entry.fix : entry.fix(context), code).not.toBe('');
    }
  });

  it('says what the error carries: the feed and scope that are off, a paused project', () => {
    const t = catalogFor('en');
    const [disabled, , , paused] = own;
    expect(explainReadFailure(classifyReadFailure(disabled), t, '', disabled)).toBe(
      t.errors.feedOff('wall', 'wall:read'),
    );
    expect(explainReadFailure(classifyReadFailure(paused), t, '', paused)).toBe(t.errors.projectPaused);
  });

  it('a 404 or a 429 is said as such whatever the code, and an unlisted code by its status', () => {
    expect(classifyReadFailure({ status: 429, code: 'forbidden' })).toBe('rate-limited');
    expect(classifyReadFailure({ status: 404, code: 'insufficient_scope' })).toBe('not-found');
    expect(classifyReadFailure({ status: 403, code: 'something_new' })).toBe('not-permitted');
    expect(classifyReadFailure({ status: 502 })).toBe('unavailable');
  });

  it("keeps a request's own hint for every platform code it lists, written once in the API's table", () => {
    const platform = Object.keys(errorCodes).filter(
      (code) => !own.some((error) => error.code === code),
    ) as ErrorCode[];
    for (const code of platform) {
      expect(hintFor(code, 403, context), code).not.toBe('');
      expect(errorCodes[code].fix, code).toBe(
        (platformErrorCodes as Record<string, PlatformErrorCode>)[code]?.fix,
      );
    }
    // Every platform code the API client knows a fix for is in the one list.
    for (const [code, entry] of Object.entries(platformErrorCodes)) {
      if ('fix' in entry) expect(Object.keys(errorCodes), code).toContain(code);
    }
  });
});
