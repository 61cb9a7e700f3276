/**
 * Text a stranger could type into a display name, wall post or reward title.
 * Every renderer test should push these through and check the output stays
 * plain, bounded and link-free.
 */
export const hostileTexts = {
  everyone: '@everyone @here look',
  slackChannel: '<!channel> <!here> <@U12345>',
  slackLink: '<https://evil.example|click me>',
  markdownLink: '[free money](https://evil.example)',
  script: '<script>alert(1)</script>hello',
  roleMention: '<@&123456789> <#987654321>',
  long: 'A'.repeat(5000),
  zeroWidth: 'ev\u200bil\u200d na\ufeffme',
  rtl: 'name\u202egnp.exe\u2066x\u2069',
  ansi: '\u001b[31mred\u001b[0m \u009b31m',
  newlines: 'line one\n\n\n\nline two\r\nline three',
} as const;

/** All hostile strings, for loops. */
export const allHostileTexts: readonly string[] = Object.values(hostileTexts);

/** URLs that must never reach a link field of a message. */
export const hostileUrls = ['https://evil.example', 'javascript:alert(1)'];
