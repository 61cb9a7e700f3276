import type { Random } from '../lib/random.js';
import type { ProjectPlan, ProjectScope, UserScope } from './types.js';
import { projectScopes } from './types.js';

export interface ProjectKeyRecord {
  readonly kind: 'project';
  /** Internal id used for rate-limit buckets and logs: never the key itself. */
  readonly id: string;
  readonly linkCaption: string;
  readonly scopes: ReadonlySet<ProjectScope>;
  /** Plan of the key's project when the key was issued: basic/legacy fall back to public limits. */
  readonly plan: ProjectPlan;
}

export interface UserKeyRecord {
  readonly kind: 'user';
  readonly id: string;
  readonly userId: number;
  readonly scopes: ReadonlySet<UserScope>;
}

export type KeyRecord = ProjectKeyRecord | UserKeyRecord;

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Issued API keys. Keys come from the seeded random so runs are reproducible; they are test keys only. */
export class KeyRegistry {
  readonly #keys = new Map<string, KeyRecord>();
  /** Keys an admin disabled: kept, so they can be enabled again. */
  readonly #revoked = new Set<string>();
  readonly #random: Random;
  #count = 0;

  constructor(random: Random) {
    this.#random = random;
  }

  issueProject(
    linkCaption: string,
    scopes: readonly ProjectScope[] = projectScopes,
    plan: ProjectPlan,
  ): string {
    const key = `svc_proj_${this.#randomPart()}`;
    this.#keys.set(key, {
      kind: 'project',
      id: `pk${++this.#count}`,
      linkCaption,
      scopes: new Set(scopes),
      plan,
    });
    return key;
  }

  issueUser(userId: number, scopes: readonly UserScope[] = []): string {
    const key = `svc_user_${this.#randomPart()}`;
    this.#keys.set(key, {
      kind: 'user',
      id: `uk${++this.#count}`,
      userId,
      scopes: new Set(['user:read', ...scopes]),
    });
    return key;
  }

  revoke(key: string): void {
    this.#revoked.add(key);
  }

  restore(key: string): void {
    this.#revoked.delete(key);
  }

  /** Replaces the scopes of an issued key (an admin editing it in the project administration). */
  setScopes(key: string, scopes: readonly string[]): void {
    const record = this.#keys.get(key);
    if (record === undefined) throw new Error('setScopes: no such key was issued');
    this.#keys.set(key, { ...record, scopes: new Set(scopes) } as KeyRecord);
  }

  lookup(key: string): KeyRecord | undefined {
    return this.#revoked.has(key) ? undefined : this.#keys.get(key);
  }

  #randomPart(): string {
    let out = '';
    for (let i = 0; i < 32; i++) out += alphabet[Math.floor(this.#random.next() * alphabet.length)];
    return out;
  }
}
