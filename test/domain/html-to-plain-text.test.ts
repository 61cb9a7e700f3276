import { describe, expect, test } from 'vitest';
import { htmlToPlainText } from '../../src/domain/text.js';

/**
 * Reward descriptions and blog posts are HTML (spec): every named entity of the HTML
 * standard is decoded, as a browser would show it, and what decodes is still user text.
 */
describe('htmlToPlainText: entities', () => {
  test.each([
    [
      'French',
      '<p>R&eacute;compense&nbsp;: l&rsquo;&eacute;t&eacute; &agrave; No&euml;l &ccedil;a &oelig;uvre &copy;</p>',
      'Récompense : l’été à Noël ça œuvre ©',
    ],
    [
      'Spanish',
      '&iquest;Qu&eacute; tal? &iexcl;Ma&ntilde;ana! Se&ntilde;or &Aacute;lvarez &laquo;s&iacute;&raquo;',
      '¿Qué tal? ¡Mañana! Señor Álvarez «sí»',
    ],
    [
      'Italian',
      'Citt&agrave; &egrave; perch&eacute; pi&ugrave; cos&igrave; &ograve; &ldquo;grazie&rdquo; &hellip; &euro;5',
      'Città è perché più così ò “grazie” … €5',
    ],
    ['numeric', '&#233;t&#xE9; &#128512;', 'été 😀'],
    ['legacy, without the semicolon (as browsers read text)', 'AT&T &copy 2024 &eacute', 'AT&T © 2024 é'],
    ['unknown names stay as written', '&bogus; &unknown; & alone', '&bogus; &unknown; & alone'],
  ])('%s', (_label, html, plain) => {
    expect(htmlToPlainText(html)).toBe(plain);
  });

  test('one pass: an encoded entity decodes once, to its literal text', () => {
    expect(htmlToPlainText('&amp;lt;b&amp;gt; &amp;eacute;')).toBe('&lt;b&gt; &eacute;');
  });

  test('an encoded tag decodes to literal text after the tags were removed: it is never markup', () => {
    expect(htmlToPlainText('<b>bold</b> &lt;b&gt;typed&lt;/b&gt; &lt;script&gt;x&lt;/script&gt;')).toBe(
      'bold <b>typed</b> <script>x</script>',
    );
  });

  test('an encoded invisible or bidi character is removed like a typed one', () => {
    expect(
      htmlToPlainText('a&ZeroWidthSpace;b&#x202E;c&rlm;d&#8206;e&NoBreak;f&#xFEFF;g&InvisibleTimes;h&shy;i'),
    ).toBe('abcdefghi');
    expect(htmlToPlainText('&#0;&#x1B;[31m')).toBe('\ufffd[31m');
  });

  test('entities for blank space fold like blank space', () => {
    expect(htmlToPlainText('a&nbsp;&nbsp;&emsp;b&Tab;c&NewLine;&NewLine;&NewLine;&NewLine;d')).toBe(
      'a \u2003b c\n\nd',
    );
  });
});
