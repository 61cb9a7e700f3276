/**
 * User-controlled strings that try to ping, link, inject markup or break layout.
 * Exported for the tests of every part that renders platform text: each of these
 * must come out as inert plain text.
 */
export const hostileTexts: readonly string[] = [
  '@everyone',
  '@here',
  'hey @everyone look at this',
  '<@123>',
  '<@!123>',
  '<@&456>',
  '<#789>',
  '<!channel>',
  '<!here>',
  '<!everyone>',
  '<https://evil.example|click>',
  '[x](https://evil.example)',
  'https://evil.example/phish',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '**bold**',
  '__underline__ ~~strike~~ ||spoiler||',
  '# heading',
  '> quote',
  '```code```',
  '`inline`',
  '*bold* _italic_ ~strike~',
  'zero\u200bwidth\u200c\u200djoin\u2060er\ufeff',
  '\u202eRTL override evil.exe\u202c',
  '&lt;b&gt;entities&lt;/b&gt; &amp; &#64;everyone',
  'line one\nline two\r\n\tindented',
  'a'.repeat(5000),
  '🚀'.repeat(2500),
];

/** A 5000-character string of mixed content, for length-limit tests. */
export const hostileLongText: string = '@everyone <!channel> [x](https://evil.example) **bold** '
  .repeat(100)
  .slice(0, 5000);
