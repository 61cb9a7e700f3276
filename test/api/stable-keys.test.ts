import { describe, expect, it } from 'vitest';
import { blogPostKey, fundingKey, wallPostKey } from '../../src/api/index.js';

describe('stable keys (spec: Pagination)', () => {
  it('wall posts and blog posts are keyed by id', () => {
    expect(wallPostKey({ id: 5 })).toBe(wallPostKey({ id: 5 }));
    expect(wallPostKey({ id: 5 })).not.toBe(wallPostKey({ id: 6 }));
    expect(blogPostKey({ id: 5 })).not.toBe(wallPostKey({ id: 5 }));
  });

  it('fundings are keyed by support_timestamp plus user', () => {
    const a = { support_timestamp: 100, user: { id: 1, display_name: 'A' } };
    expect(fundingKey(a)).toBe(fundingKey({ ...a, user: { id: 1, display_name: 'renamed' } }));
    expect(fundingKey(a)).not.toBe(fundingKey({ ...a, user: { id: 2, display_name: 'A' } }));
    expect(fundingKey(a)).not.toBe(fundingKey({ ...a, support_timestamp: 101 }));
  });
});
