import type { Catalog } from './i18n/catalog.js';

/**
 * A command declines with an explanation for the user (their mistake, missing
 * rights, the platform being down). Thrown inside the core and turned into a
 * private message by `execute`, in the language chosen for error replies: it
 * never leaves the core.
 */
export class CommandRefusal extends Error {
  override readonly name = 'CommandRefusal';
  constructor(
    readonly explain: (t: Catalog) => string,
    options?: ErrorOptions,
  ) {
    super('command refused', options);
  }
}
