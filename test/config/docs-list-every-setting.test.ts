import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { configFileSchema, envVars } from '../../src/config/index.js';

const docs = readFileSync(fileURLToPath(new URL('../../docs/configuration.md', import.meta.url)), 'utf8');

/** The first cell of every table row: the setting it documents. */
const documented = new Set([...docs.matchAll(/^\|\s*`([^`]+)`/gm)].map((m) => m[1]));

/** Every `section.field` of the file schema (sections unwrapped from their defaults), and the top-level scalars. */
function schemaFields(): string[] {
  const fields: string[] = [];
  for (const [section, schema] of Object.entries(configFileSchema.shape)) {
    let def = (schema as unknown as { _zod: { def: ZodDef } })._zod.def;
    while (def.innerType) def = def.innerType._zod.def;
    if (def.type === 'object' && def.shape)
      fields.push(...Object.keys(def.shape).map((f) => `${section}.${f}`));
    else if (section !== 'projects') fields.push(section);
  }
  return fields;
}
interface ZodDef {
  type: string;
  innerType?: { _zod: { def: ZodDef } };
  shape?: Record<string, unknown>;
}

describe('docs/configuration.md lists every setting', () => {
  it('has a table row for every field of the config file', () => {
    const fields = schemaFields();
    expect(fields).toContain('discord.mode');
    expect(fields.filter((f) => !documented.has(f))).toEqual([]);
  });

  it('has a table row for every environment variable fundbot reads', () => {
    expect(Object.values(envVars).filter((name) => !documented.has(name))).toEqual([]);
  });
});
