import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * One text-limits table (src/domain/text-limits.ts): no module cuts a name, title or
 * message at a number of its own. Issue 23 found names cut at 80/200 in the engine,
 * 60/120 in the core and 60/80/120 in the digest. A cut with a literal bound anywhere in
 * src/ fails here; the platforms' own limits are named too (slackLimits, discordLimits).
 */

const srcRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/**
 * A call of one of the cutting functions whose bound is a number literal (`singleLine(x, 80)`)
 * or a module constant of its own (`singleLine(x, NAME_MAX)`).
 */
const literalCut =
  /\b(singleLine|shorten|displayName|clip)\((?:[^()]|\([^()]*\))*?,\s*(\d[\d_]*|[A-Z][A-Z0-9_]*)\s*[,)]/g;

describe('text limits', () => {
  it('every cut of text in src/ takes its bound from a named table, never a number of its own', () => {
    const found: string[] = [];
    for (const file of sourceFiles(srcRoot)) {
      if (file.endsWith(join('domain', 'text.ts'))) continue; // the cutting functions themselves
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(literalCut)) {
        const line = text.slice(0, match.index).split('\n').length;
        found.push(`${relative(srcRoot, file)}:${line}: ${match[0]}`);
      }
    }
    expect(found).toEqual([]);
  });

  it('finds the cuts it is meant to find', () => {
    const samples = [
      'singleLine(f.user.display_name, 80)',
      'shorten(htmlToPlainText(m), 500)',
      'displayName(a, 60, t.someone)',
      'clip(neutralize(x), 1_000)',
      'singleLine(f.item.user.display_name, NAME_MAX)',
    ];
    for (const sample of samples) expect(sample.match(literalCut), sample).not.toBeNull();
    expect('singleLine(x, limits.name)'.match(literalCut)).toBeNull();
  });
});
