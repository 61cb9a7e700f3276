import type { limits } from '../../src/domain/text-limits.js';

/**
 * Text whose invisible joiners are part of the writing: cut inside one of these, or strip
 * its joiner, and a reader sees a different emoji or a misspelt name.
 */
export const joinedTexts = {
  'a family (ZWJ sequence)': '👨\u200d👩\u200d👧\u200d👦',
  'a rainbow flag (VS16 and ZWJ)': '🏳\ufe0f\u200d🌈',
  'a technologist with a skin tone': '👩🏽\u200d💻',
  'the Scottish flag (tag sequence)': '🏴\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f}',
  'a keycap': '1\ufe0f\u20e3',
  'a Persian name with ZWNJ (Mehrnoush)': 'مهر\u200cنوش',
  'a Persian verb with ZWNJ': 'می\u200cخواهم',
  'a Devanagari half form with ZWJ': 'क्\u200dष',
  'a Sinhala name with ZWJ (Sri)': 'ශ්\u200dරී',
  'a Malayalam name with ZWNJ (Karthika)': 'കാര്\u200cത്തിക',
  'Vietnamese with stacked marks': 'Nguyê\u0303n',
} as const;

/** The entries of src/domain/text-limits.ts that bound a text's length (the others count items). */
export const textLimitNames = [
  'name',
  'title',
  'messageTitle',
  'wallMessage',
  'quotedMessage',
  'teaser',
  'listTeaser',
  'rewardListDescription',
  'rewardDescription',
  'choice',
  'reason',
  'driftLine',
  'linkLabel',
  'batchNames',
  'suggestion',
] as const satisfies readonly (keyof typeof limits)[];

/** French, Spanish and Italian reward and blog HTML with named entities, and what a reader must see. */
export const entityTexts = {
  French: {
    html: '<p>R&eacute;compense&nbsp;: l&rsquo;&eacute;t&eacute; &agrave; No&euml;l &ccedil;a &copy;</p>',
    plain: 'Récompense : l’été à Noël ça ©',
  },
  Spanish: {
    html: '<p>&iquest;Qu&eacute; tal? &iexcl;Ma&ntilde;ana! Se&ntilde;or &Aacute;lvarez &laquo;s&iacute;&raquo;</p>',
    plain: '¿Qué tal? ¡Mañana! Señor Álvarez «sí»',
  },
  Italian: {
    html: '<p>Citt&agrave; &egrave; perch&eacute; pi&ugrave; cos&igrave; &ldquo;grazie&rdquo; &hellip;</p>',
    plain: 'Città è perché più così “grazie” …',
  },
} as const;
