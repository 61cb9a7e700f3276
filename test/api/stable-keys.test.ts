import { describe, expect, it } from 'vitest';
import {
  blogPostKey,
  fundingKey,
  type Order,
  orderKey,
  subscriberKey,
  wallPostKey,
} from '../../src/api/index.js';

function anOrder(overrides: Partial<Order> = {}): Order {
  return {
    support_timestamp: 1_767_225_600,
    updated_timestamp: 1_767_225_700,
    collection_timestamp: 1_767_300_000,
    transaction_number: 'TX-1001',
    total_amount: 25,
    status_code: 'collected',
    bill_address: { firstname: 'Ada', lastname: 'Lovelace', city: 'London', country: 'GB' },
    ordered_incentives: [],
    ...overrides,
  };
}

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

  it('orders are keyed by transaction number, stable while the order is updated, and carry no name', () => {
    const order = anOrder();
    expect(orderKey(order)).toBe(
      orderKey(anOrder({ updated_timestamp: 1, status_code: 'other', total_amount: 30 })),
    );
    expect(orderKey(order)).not.toBe(orderKey(anOrder({ transaction_number: 'TX-1002' })));
    expect(orderKey(order)).not.toContain('Ada');
  });

  it('an order without transaction number falls back to collection_timestamp plus buyer', () => {
    const a = anOrder({ transaction_number: ' ' });
    expect(orderKey(a)).toBe(orderKey(anOrder({ transaction_number: '', updated_timestamp: 5 })));
    expect(orderKey(a)).not.toBe(
      orderKey(anOrder({ transaction_number: '', bill_address: { firstname: 'Bob', lastname: 'B' } })),
    );
  });

  it('subscribers are keyed by subscribed_timestamp plus user, also without an account', () => {
    const user = { id: 3, first_name: 'A', last_name: 'B', is_public: true };
    expect(subscriberKey({ subscribed_timestamp: 1, user })).not.toBe(
      subscriberKey({ subscribed_timestamp: 1, user: null }),
    );
    expect(subscriberKey({ subscribed_timestamp: 1, user: null })).toBe(
      subscriberKey({ subscribed_timestamp: 1, user: null }),
    );
    expect(subscriberKey({ subscribed_timestamp: 1, user: null })).not.toBe(
      subscriberKey({ subscribed_timestamp: 2, user: null }),
    );
  });
});
