/** Where a JSON text stops being valid, 1-based, and why (never quoting the text itself). */
export interface JsonErrorLocation {
  readonly line: number;
  readonly column: number;
  readonly reason: string;
}

class JsonSyntaxError extends Error {
  constructor(
    readonly offset: number,
    readonly reason: string,
  ) {
    super(reason);
  }
}

/**
 * Finds the first syntax error in `text` (strict JSON, RFC 8259).
 *
 * Why not use `JSON.parse`'s message: depending on the error, V8 reports a
 * position or quotes a slice of the file instead (`Unexpected token 'x', "{ "a": x…"
 * is not valid JSON`). A config file should not hold secrets, but if it does we
 * must not echo them; and a line and column are what an operator needs.
 * Returns undefined when the text is valid JSON.
 */
export function locateJsonError(text: string): JsonErrorLocation | undefined {
  try {
    new JsonScanner(text).document();
    return undefined;
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error;
    const before = text.slice(0, error.offset);
    const line = before.split('\n').length;
    const column = error.offset - (before.lastIndexOf('\n') + 1) + 1;
    return { line, column, reason: error.reason };
  }
}

class JsonScanner {
  #pos = 0;

  constructor(private readonly text: string) {}

  document(): void {
    this.#skipWhitespace();
    if (this.#pos >= this.text.length) this.#fail('the file is empty: it must hold one JSON object');
    this.#value();
    this.#skipWhitespace();
    if (this.#pos < this.text.length)
      this.#fail(`unexpected ${this.#describe()} after the end of the JSON value`);
  }

  #value(): void {
    const c = this.text[this.#pos];
    if (c === '{') this.#object();
    else if (c === '[') this.#array();
    else if (c === '"') this.#string();
    else if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) this.#number();
    else this.#literal(c);
  }

  #literal(c: string | undefined): void {
    for (const literal of ['true', 'false', 'null']) {
      if (this.text.startsWith(literal, this.#pos)) {
        this.#pos += literal.length;
        return;
      }
    }
    if (c === "'") this.#fail('strings need double quotes (") in JSON');
    this.#fail(`expected a value, found ${this.#describe()}`);
  }

  #object(): void {
    this.#pos++;
    this.#skipWhitespace();
    if (this.text[this.#pos] === '}') {
      this.#pos++;
      return;
    }
    for (;;) {
      this.#skipWhitespace();
      if (this.text[this.#pos] === '}') this.#fail('trailing comma before "}" (JSON allows none)');
      if (this.text[this.#pos] !== '"')
        this.#fail(`expected a field name in double quotes, found ${this.#describe()}`);
      this.#string();
      this.#skipWhitespace();
      if (this.text[this.#pos] !== ':')
        this.#fail(`expected ":" after the field name, found ${this.#describe()}`);
      this.#pos++;
      this.#skipWhitespace();
      this.#value();
      this.#skipWhitespace();
      const c = this.text[this.#pos];
      this.#pos++;
      if (c === '}') return;
      if (c !== ',') {
        this.#pos--;
        this.#fail(`expected "," or "}" after a field value, found ${this.#describe()}`);
      }
    }
  }

  #array(): void {
    this.#pos++;
    this.#skipWhitespace();
    if (this.text[this.#pos] === ']') {
      this.#pos++;
      return;
    }
    for (;;) {
      this.#skipWhitespace();
      if (this.text[this.#pos] === ']') this.#fail('trailing comma before "]" (JSON allows none)');
      this.#value();
      this.#skipWhitespace();
      const c = this.text[this.#pos];
      this.#pos++;
      if (c === ']') return;
      if (c !== ',') {
        this.#pos--;
        this.#fail(`expected "," or "]" after an array item, found ${this.#describe()}`);
      }
    }
  }

  #string(): void {
    const start = this.#pos;
    this.#pos++;
    while (this.#pos < this.text.length) {
      const c = this.text[this.#pos];
      if (c === '"') {
        this.#pos++;
        return;
      }
      if (c === '\\') {
        const next = this.text[this.#pos + 1];
        if (next === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(this.text.slice(this.#pos + 2, this.#pos + 6))) {
            this.#fail('invalid \\u escape: it needs four hex digits');
          }
          this.#pos += 6;
          continue;
        }
        if (next === undefined || !'"\\/bfnrt'.includes(next))
          this.#fail('invalid escape sequence in a string');
        this.#pos += 2;
        continue;
      }
      if (c !== undefined && c < ' ') this.#fail('line break or control character inside a string');
      this.#pos++;
    }
    this.#pos = start;
    this.#fail('string is never closed (missing ")');
  }

  #number(): void {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(this.text.slice(this.#pos));
    if (match === null || match[0] === '-') this.#fail('invalid number');
    this.#pos += match[0].length;
  }

  #skipWhitespace(): void {
    while (this.#pos < this.text.length && ' \t\n\r'.includes(this.text[this.#pos] ?? '')) this.#pos++;
  }

  #describe(): string {
    const c = this.text[this.#pos];
    if (c === undefined) return 'the end of the file';
    // One structural character is safe to name; anything else could be part of a value.
    if ('{}[]:,"\''.includes(c)) return `"${c}"`;
    return 'an unexpected character';
  }

  #fail(reason: string): never {
    throw new JsonSyntaxError(this.#pos, reason);
  }
}
