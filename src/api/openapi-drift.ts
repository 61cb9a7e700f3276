import type { Clock } from '../lib/clock.js';
import type { KeyValueStore } from '../lib/store.js';
import type { ApiClient } from './api-client.js';
import { keepOpenApi, OPENAPI_STORE_KEY, readStoredOpenApi } from './openapi-drift-store.js';

/**
 * API drift detection. The spec promises nothing about changes of fields,
 * endpoints or defaults and tells clients to fetch /openapi.json periodically
 * and compare. This module is the comparison: a pure diff plus a small check
 * that keeps the last copy in the store.
 */

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export interface OperationRef {
  /** Upper-case HTTP method. */
  readonly method: string;
  /** OpenAPI path, e.g. `/project/{link_caption}/wall`. */
  readonly path: string;
}
export interface ParameterChange extends OperationRef {
  readonly name: string;
  /** `query`, `path`, `header`, `cookie`. */
  readonly in: string;
}
export interface ResponseFieldChange extends OperationRef {
  /** Dotted field path of the success response body; `[]` marks array items: `data[].user.id`. */
  readonly field: string;
}
/** A parameter present in both documents whose contract changed (default, type, required, enum, bounds). */
export interface ParameterContractChange extends ParameterChange {
  /** What changed, e.g. `default: 20 → 10`. */
  readonly changes: string[];
}
/** A response field present in both documents whose declared type changed. */
export interface ResponseFieldTypeChange extends ResponseFieldChange {
  readonly before: string;
  readonly after: string;
}

export interface ApiDriftReport {
  /** True when anything below is non-empty. */
  readonly changed: boolean;
  readonly addedPaths: string[];
  readonly removedPaths: string[];
  /** Operations (method + path) added to or removed from paths present in both documents. */
  readonly addedOperations: OperationRef[];
  readonly removedOperations: OperationRef[];
  readonly addedParameters: ParameterChange[];
  readonly removedParameters: ParameterChange[];
  /** Same parameter, changed default/type/required/enum/bounds: the spec warns that defaults may change. */
  readonly changedParameters: ParameterContractChange[];
  readonly addedResponseFields: ResponseFieldChange[];
  readonly removedResponseFields: ResponseFieldChange[];
  readonly changedResponseFields: ResponseFieldTypeChange[];
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Resolves a local `$ref` (`#/components/...`); unknown or remote refs resolve to undefined. */
function resolve(doc: Json, value: unknown, seen: ReadonlySet<string> = new Set()): Json | undefined {
  if (!isObject(value)) return undefined;
  const ref = value.$ref;
  if (typeof ref !== 'string') return value;
  if (!ref.startsWith('#/') || seen.has(ref)) return undefined;
  let target: unknown = doc;
  for (const raw of ref.slice(2).split('/')) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    target = isObject(target) ? target[part] : undefined;
  }
  return resolve(doc, target, new Set([...seen, ref]));
}

function operations(doc: Json): Map<string, { path: string; method: string; op: Json; pathItem: Json }> {
  const result = new Map<string, { path: string; method: string; op: Json; pathItem: Json }>();
  const paths = isObject(doc.paths) ? doc.paths : {};
  for (const [path, rawItem] of Object.entries(paths)) {
    const pathItem = resolve(doc, rawItem);
    if (!pathItem) continue;
    for (const method of METHODS) {
      const op = resolve(doc, pathItem[method]);
      if (op)
        result.set(`${method.toUpperCase()} ${path}`, { path, method: method.toUpperCase(), op, pathItem });
    }
  }
  return result;
}

interface ParameterInfo {
  readonly name: string;
  readonly in: string;
  /** The parts of the contract compared between versions. */
  readonly contract: Readonly<Record<string, string>>;
}

const CONTRACT_KEYS = ['type', 'default', 'enum', 'minimum', 'maximum', 'format'] as const;

function contractOf(doc: Json, param: Json): Record<string, string> {
  const schema = resolve(doc, param.schema) ?? {};
  const contract: Record<string, string> = { required: JSON.stringify(param.required ?? false) };
  for (const key of CONTRACT_KEYS) {
    const value = schema[key] ?? param[key];
    if (value !== undefined) contract[key] = JSON.stringify(value);
  }
  return contract;
}

function parameters(doc: Json, pathItem: Json, op: Json): Map<string, ParameterInfo> {
  const result = new Map<string, ParameterInfo>();
  // Operation parameters override path-level ones with the same name and location (OpenAPI rule).
  for (const list of [pathItem.parameters, op.parameters]) {
    if (!Array.isArray(list)) continue;
    for (const raw of list) {
      const param = resolve(doc, raw);
      if (!param || typeof param.name !== 'string') continue;
      const location = typeof param.in === 'string' ? param.in : 'query';
      result.set(`${location}:${param.name}`, {
        name: param.name,
        in: location,
        contract: contractOf(doc, param),
      });
    }
  }
  return result;
}

/** Field paths of a schema, following $ref, arrays and allOf/anyOf/oneOf; bounded against recursion. */
function schemaFields(
  doc: Json,
  schema: unknown,
  prefix: string,
  out: Map<string, string>,
  refs: ReadonlySet<string>,
  depth: number,
): void {
  if (depth > 12 || !isObject(schema)) return;
  let current: Json | undefined = schema;
  let nextRefs = refs;
  if (typeof schema.$ref === 'string') {
    if (refs.has(schema.$ref)) return;
    nextRefs = new Set([...refs, schema.$ref]);
    current = resolve(doc, schema);
    if (!current) return;
  }
  for (const combiner of ['allOf', 'anyOf', 'oneOf'] as const) {
    const parts = current[combiner];
    if (Array.isArray(parts))
      for (const part of parts) schemaFields(doc, part, prefix, out, nextRefs, depth + 1);
  }
  if (current.items !== undefined) schemaFields(doc, current.items, `${prefix}[]`, out, nextRefs, depth + 1);
  if (isObject(current.properties)) {
    for (const [name, child] of Object.entries(current.properties)) {
      const field = prefix ? `${prefix}.${name}` : name;
      out.set(field, typeOf(doc, child));
      schemaFields(doc, child, field, out, nextRefs, depth + 1);
    }
  }
}

/** The declared type of a schema, `integer|null` style; `?` when not stated. */
function typeOf(doc: Json, schema: unknown): string {
  const resolved = resolve(doc, schema);
  if (!resolved) return '?';
  const type = resolved.type;
  const base = Array.isArray(type)
    ? type.join('|')
    : typeof type === 'string'
      ? type
      : resolved.properties
        ? 'object'
        : '?';
  return resolved.nullable === true ? `${base}|null` : base;
}

function responseFields(doc: Json, op: Json): Map<string, string> {
  const out = new Map<string, string>();
  const responses = isObject(op.responses) ? op.responses : {};
  const success = Object.keys(responses)
    .filter((status) => /^2(\d\d|XX)$/i.test(status))
    .sort()[0];
  if (success === undefined) return out;
  const response = resolve(doc, responses[success]);
  const content = response && isObject(response.content) ? response.content : {};
  const media = content['application/json'] ?? Object.values(content)[0];
  if (isObject(media)) schemaFields(doc, media.schema, '', out, new Set(), 0);
  return out;
}

function byOperation(a: OperationRef, b: OperationRef): number {
  return a.path.localeCompare(b.path) || a.method.localeCompare(b.method);
}

/**
 * Compares two OpenAPI documents: paths, operations, parameters per operation
 * (added, removed, changed default/type/required/enum/bounds) and response fields
 * per operation (added, removed, changed type). Pure; tolerant of anything that is not a valid
 * document (it just finds fewer things).
 */
export function diffOpenApi(previous: unknown, current: unknown): ApiDriftReport {
  const before = isObject(previous) ? previous : {};
  const after = isObject(current) ? current : {};
  const pathsBefore = new Set(Object.keys(isObject(before.paths) ? before.paths : {}));
  const pathsAfter = new Set(Object.keys(isObject(after.paths) ? after.paths : {}));
  const opsBefore = operations(before);
  const opsAfter = operations(after);

  const report = {
    addedPaths: [...pathsAfter].filter((p) => !pathsBefore.has(p)).sort(),
    removedPaths: [...pathsBefore].filter((p) => !pathsAfter.has(p)).sort(),
    addedOperations: [] as OperationRef[],
    removedOperations: [] as OperationRef[],
    addedParameters: [] as ParameterChange[],
    removedParameters: [] as ParameterChange[],
    changedParameters: [] as ParameterContractChange[],
    addedResponseFields: [] as ResponseFieldChange[],
    removedResponseFields: [] as ResponseFieldChange[],
    changedResponseFields: [] as ResponseFieldTypeChange[],
  };

  for (const [id, op] of opsAfter) {
    if (!opsBefore.has(id) && pathsBefore.has(op.path))
      report.addedOperations.push({ method: op.method, path: op.path });
  }
  for (const [id, op] of opsBefore) {
    if (!opsAfter.has(id) && pathsAfter.has(op.path))
      report.removedOperations.push({ method: op.method, path: op.path });
  }
  // Parameters and fields are compared for operations present in both: new or removed
  // operations are already reported as such.
  for (const [id, now] of opsAfter) {
    const then = opsBefore.get(id);
    if (!then) continue;
    const ref = { method: now.method, path: now.path };
    const paramsThen = parameters(before, then.pathItem, then.op);
    const paramsNow = parameters(after, now.pathItem, now.op);
    for (const [k, p] of paramsNow) {
      const old = paramsThen.get(k);
      if (!old) {
        report.addedParameters.push({ ...ref, name: p.name, in: p.in });
        continue;
      }
      const keys = new Set([...Object.keys(old.contract), ...Object.keys(p.contract)]);
      const changes = [...keys]
        .filter((key) => old.contract[key] !== p.contract[key])
        .sort()
        .map((key) => `${key}: ${old.contract[key] ?? '(none)'} → ${p.contract[key] ?? '(none)'}`);
      if (changes.length > 0) report.changedParameters.push({ ...ref, name: p.name, in: p.in, changes });
    }
    for (const [k, p] of paramsThen) {
      if (!paramsNow.has(k)) report.removedParameters.push({ ...ref, name: p.name, in: p.in });
    }
    const fieldsThen = responseFields(before, then.op);
    const fieldsNow = responseFields(after, now.op);
    for (const [field, type] of fieldsNow) {
      const old = fieldsThen.get(field);
      if (old === undefined) report.addedResponseFields.push({ ...ref, field });
      else if (old !== type) report.changedResponseFields.push({ ...ref, field, before: old, after: type });
    }
    for (const field of fieldsThen.keys()) {
      if (!fieldsNow.has(field)) report.removedResponseFields.push({ ...ref, field });
    }
  }
  report.addedOperations.sort(byOperation);
  report.removedOperations.sort(byOperation);
  const changed = Object.values(report).some((list) => list.length > 0);
  return { changed, ...report };
}

export interface ApiDriftCheck {
  /** Clock ms of this check. */
  readonly checkedAt: number;
  /** True on the first check: nothing to compare with yet, the document was stored as the baseline. */
  readonly baseline: boolean;
  /** When the compared copy was fetched (undefined on the baseline run). */
  readonly previousFetchedAt: number | undefined;
  readonly report: ApiDriftReport;
}

/**
 * Fetches /openapi.json, compares it with the last stored copy, stores the new
 * copy and returns the report. Run it periodically (say daily) and log or
 * alert on `report.changed`. A baseline run reports no change.
 */
export async function checkApiDrift(deps: {
  api: Pick<ApiClient, 'openapi'>;
  store: KeyValueStore;
  clock: Clock;
  signal?: AbortSignal;
  storeKey?: string;
}): Promise<ApiDriftCheck> {
  const key = deps.storeKey ?? OPENAPI_STORE_KEY;
  const current = await deps.api.openapi(deps.signal);
  const previous = await readStoredOpenApi(deps.store, key);
  const checkedAt = deps.clock.now();
  await keepOpenApi(deps.store, { fetchedAt: checkedAt, doc: current }, key);
  return {
    checkedAt,
    baseline: previous === undefined,
    previousFetchedAt: previous?.fetchedAt,
    report: diffOpenApi(previous?.doc ?? current, current),
  };
}
