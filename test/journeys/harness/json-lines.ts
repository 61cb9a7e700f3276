/**
 * The README promises log lines with "one key once per line": JSON.parse keeps the last of two equal keys
 * silently, so the keys of each object are read from the text itself.
 */

/** Keys that occur more than once in the same object of a JSON text (at any depth). */
export function repeatedKeys(json: string): string[] {
  const repeated: string[] = [];
  // One set of keys per open object; arrays push null so their strings are not taken for keys.
  const open: (Set<string> | null)[] = [];
  let i = 0;
  while (i < json.length) {
    const c = json[i];
    if (c === '{') open.push(new Set());
    else if (c === '[') open.push(null);
    else if (c === '}' || c === ']') open.pop();
    else if (c === '"') {
      let end = i + 1;
      while (end < json.length && json[end] !== '"') end += json[end] === '\\' ? 2 : 1;
      const keys = open.at(-1);
      // A string followed by a colon is a key of the innermost object.
      if (keys && /^\s*:/.test(json.slice(end + 1, end + 20))) {
        const key = json.slice(i + 1, end);
        if (keys.has(key)) repeated.push(key);
        keys.add(key);
      }
      i = end;
    }
    i += 1;
  }
  return repeated;
}
