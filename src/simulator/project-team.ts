/**
 * Who runs a project: its owner and team members with their roles. The server's
 * access checks read it (`roleOf`, `isMember`); kept apart from the campaign content.
 */
import type { TeamRole } from './types.js';
import type { UserRegistry } from './users.js';

export class ProjectTeam {
  #ownerId: number;
  readonly #members = new Map<number, TeamRole>();
  readonly #users: UserRegistry;

  /** Every user named here is created in the registry when unknown. */
  constructor(users: UserRegistry, ownerId: number) {
    this.#users = users;
    users.get(ownerId);
    this.#ownerId = ownerId;
  }

  get ownerId(): number {
    return this.#ownerId;
  }

  /** Whether the user is owner, manager or team member. */
  isMember(userId: number): boolean {
    return userId === this.#ownerId || this.#members.has(userId);
  }

  /** Role of a user: owner, manager, member or null. */
  roleOf(userId: number): 'owner' | TeamRole | null {
    if (userId === this.#ownerId) return 'owner';
    return this.#members.get(userId) ?? null;
  }

  setOwner(userId: number): void {
    this.#users.get(userId);
    this.#ownerId = userId;
    this.#members.delete(userId);
  }

  add(userId: number, role: TeamRole): void {
    this.#users.get(userId);
    if (userId !== this.#ownerId) this.#members.set(userId, role);
  }

  remove(userId: number): void {
    this.#members.delete(userId);
  }
}
