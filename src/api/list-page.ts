import type { z } from 'zod';
import type { ApiKey } from './credentials.js';
import { type EndpointId, endpoints } from './endpoints.js';
import type { HttpTransport } from './http-transport.js';
import type { Page, PageParams } from './page.js';

/** Query parameters of a list request besides `limit` and `offset`. */
export type ListQuery = Record<string, string | number | boolean | undefined>;

/** One list request: the endpoint, its filled path and the envelope schema of its items. */
export interface ListRequest<T> {
  readonly id: EndpointId;
  readonly schema: z.ZodType<{ data: T[]; meta: Page<T>['meta'] }>;
  readonly path: string;
  readonly key: ApiKey;
  readonly linkCaption?: string | undefined;
  readonly query?: ListQuery;
}

/** Sends one page request of a list endpoint (one API request) and unwraps the envelope. */
export async function readListPage<T>(
  transport: HttpTransport,
  request: ListRequest<T>,
  page: PageParams | undefined,
): Promise<Page<T>> {
  const result = await transport.send({
    endpoint: endpoints[request.id],
    path: request.path,
    query: { ...request.query, limit: page?.limit, offset: page?.offset },
    key: request.key,
    linkCaption: request.linkCaption,
    schema: request.schema,
    signal: page?.signal,
  });
  return {
    items: result.data.data,
    meta: result.data.meta,
    receivedAt: result.receivedAt,
    budget: result.budget,
  };
}
