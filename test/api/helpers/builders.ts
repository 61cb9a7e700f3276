/** Builders of API payloads as the spec describes them (snake_case, Unix seconds). */

export function aProject(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 7,
    title: 'Solar Kiosk',
    subtitle: 'Coffee by sunlight',
    link_caption: 'solar-kiosk',
    status: 'active',
    currency: 'EUR',
    current_funding: 1234.5,
    total_funding: 1234.5,
    funding_threshold: 5000,
    project_type_all_or_nothing: true,
    supporter_count: 42,
    like_count: 9,
    teaser_text: 'A kiosk',
    url: { main: 'https://example.test/solar-kiosk', main_relative: '/solar-kiosk' },
    ...overrides,
  };
}

export function aProjectResponse(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { project: aProject(overrides), status: 0 };
}

export function aWallPost(id: number, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    message: `message ${id}`,
    status: 'published',
    created_timestamp: 1_767_225_600 + id,
    user: { id: 100 + id, first_name: 'Ada', last_name: 'L', display_name: 'Ada L.' },
    ...overrides,
  };
}

export function aFunding(ts: number, userId: number): Record<string, unknown> {
  return { support_timestamp: ts, user: { id: userId, display_name: `User ${userId}` } };
}

export function aList(items: unknown[], meta: { total?: number; limit?: number; offset?: number } = {}) {
  return {
    data: items,
    meta: { total: meta.total ?? items.length, limit: meta.limit ?? 20, offset: meta.offset ?? 0 },
  };
}
