/**
 * fundbot reads no personal data: the API client has no call, schema or endpoint for orders or
 * subscribers, and no code outside the simulator (which serves them, as the platform does) names
 * their paths or scopes. A client that grows such a call fails here before it can reach a channel.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { endpoints } from '../../src/api/endpoints.js';
import * as api from '../../src/api/index.js';

const srcRoot = fileURLToPath(new URL('../../src', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'simulator' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('the API client reads no orders or subscribers', () => {
  it('no endpoint of the table is an order or subscriber list, or needs their scopes', () => {
    const personal = Object.values(endpoints).filter(
      (e) => /\/(orders|subscribers)\b/.test(e.template) || /^(orders|subscribers):/.test(e.scope ?? ''),
    );
    expect(personal).toEqual([]);
  });

  it('the client exports no order or subscriber schema, type guard or key', () => {
    expect(Object.keys(api).filter((name) => /order(?!ed)|subscriber/i.test(name))).toEqual([]);
  });

  it('no source file outside the simulator names their paths or scopes', () => {
    const found: string[] = [];
    for (const file of sourceFiles(srcRoot)) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/\/(orders|subscribers)\b|\b(orders|subscribers):read\b/g)) {
        const line = text.slice(0, match.index).split('\n').length;
        found.push(`${relative(srcRoot, file)}:${line}: ${match[0]}`);
      }
    }
    expect(found).toEqual([]);
  });
});
