import type { Clock } from '../lib/clock.js';
import type { IdSource } from './ids.js';
import type { NameGenerator } from './names.js';
import type { SimUser } from './types.js';

/** The platform's user accounts, created on demand (supporters, owners, key holders). */
export class UserRegistry {
  readonly #users = new Map<number, SimUser>();
  readonly #ids: IdSource;
  readonly #names: NameGenerator;
  readonly #clock: Clock;

  constructor(ids: IdSource, names: NameGenerator, clock: Clock) {
    this.#ids = ids;
    this.#names = names;
    this.#clock = clock;
  }

  /** Creates a new user; missing names are generated. */
  create(fields: Partial<Omit<SimUser, 'id'>> & { id?: number } = {}): SimUser {
    const person = this.#names.person();
    const id = fields.id ?? this.#ids.next('user');
    this.#ids.reserve('user', id);
    const firstName = fields.firstName ?? person.firstName;
    const lastName = fields.lastName ?? person.lastName;
    const user: SimUser = {
      id,
      firstName,
      lastName,
      displayName: fields.displayName ?? `${firstName} ${lastName}`,
      city: fields.city === undefined ? person.city : fields.city,
      biography: fields.biography ?? null,
      registeredAt: fields.registeredAt ?? this.#clock.now() - 400 * 86_400_000,
    };
    this.#users.set(id, user);
    return user;
  }

  /** The user with this id, created with generated names when unknown. */
  get(id: number): SimUser {
    return this.#users.get(id) ?? this.create({ id });
  }

  has(id: number): boolean {
    return this.#users.has(id);
  }

  /** Replaces fields of a user (creating it first if needed). */
  update(id: number, fields: Partial<Omit<SimUser, 'id'>>): SimUser {
    const updated: SimUser = { ...this.get(id), ...fields, id };
    this.#users.set(id, updated);
    return updated;
  }
}
