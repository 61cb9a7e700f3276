/** Page size default and maximum (spec, Pagination). */
export const defaultLimit = 20;
export const maxLimit = 100;

/**
 * Reads `limit` and `offset` the lenient way the spec describes: never a 400.
 * `limit` 0, empty, missing or unparsable means 20; above 100 is clamped to 100.
 * `offset` empty, missing, negative or unparsable means 0. (Negative and
 * unparsable values are not covered by the spec; treating them as absent keeps
 * the "never 400" rule.)
 */
export function parsePaging(query: URLSearchParams): { limit: number; offset: number } {
  const limit = Number.parseInt(query.get('limit') ?? '', 10);
  const offset = Number.parseInt(query.get('offset') ?? '', 10);
  return {
    limit: Number.isFinite(limit) && limit > 0 ? Math.min(limit, maxLimit) : defaultLimit,
    offset: Number.isFinite(offset) && offset > 0 ? offset : 0,
  };
}
