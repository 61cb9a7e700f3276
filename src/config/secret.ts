import { inspect } from 'node:util';

const values = new WeakMap<Secret, string>();

/**
 * A secret read from the environment (a chat platform token, a signing secret).
 * Shows itself only as `Secret(DISCORD_TOKEN)`: in logs, JSON, `util.inspect` and
 * template strings. The value lives outside the object (a module WeakMap), so
 * spreading or cloning the config cannot copy it; `reveal()` hands it to the one
 * library that needs it.
 */
export class Secret {
  /** Name of the environment variable the value came from: safe to log. */
  readonly source: string;

  constructor(source: string, value: string) {
    this.source = source;
    values.set(this, value);
  }

  /** The raw value, for the platform client only. Never log or store it. */
  reveal(): string {
    // Always set by the constructor; the fallback keeps the type honest.
    return values.get(this) ?? '';
  }

  toString(): string {
    return `Secret(${this.source})`;
  }

  toJSON(): string {
    return this.toString();
  }

  [inspect.custom](): string {
    return this.toString();
  }
}
