import { pick, type Random } from '../lib/random.js';
import { hostileTexts } from './hostile-texts.js';

/**
 * Seeded, varied, international names and texts. Umlauts, accents, non-Latin
 * scripts and emoji are deliberate: renderers and shorteners must survive them.
 */

const firstNames = [
  'Lena',
  'Jürgen',
  'Zoë',
  'Mats',
  'Ayşe',
  'François',
  'Søren',
  'Małgorzata',
  'José',
  'Chiara',
  'Björn',
  'Nguyễn',
  'Ana',
  'Lukas',
  'Émilie',
  'Mehmet',
  'Sakura',
  'Олег',
  'Priya',
  'Kwame',
  'Inès',
  'Jörg',
  'Fatima',
  'Oğuz',
  'Siobhán',
  'Wei',
  'Łukasz',
  'Amélie',
  'Noah',
  'Mia',
  'Ole',
  'Ingrid',
  'Dmitri',
  'Yara',
  'Tomás',
  'Hana',
  'Ravi',
  'Grete',
  'Małgosia',
  'Jonas',
  'Leonie',
  'Paulo',
  'Aiko',
  'Ömer',
  'Eliška',
  'Raphaël',
  'Nadia',
  'Kai',
  'Frieda',
  'Selin',
];
const lastNames = [
  'Müller',
  'Schröder',
  'Öztürk',
  'García',
  'Nørgaard',
  'Kowalski',
  'Dubois',
  'Rossi',
  'Yılmaz',
  'Tanaka',
  'Weiß',
  'Smith',
  'Nakamura',
  'Ivanova',
  'Mensah',
  'Fernández',
  'Håkansson',
  'Papadopoulos',
  "O'Brien",
  'Van der Berg',
  'Le',
  'Schäfer',
  'Lindqvist',
  'Novák',
  'Rahman',
  'Kühn',
  'Ferreira',
  'Jäger',
  'Zieliński',
  'Haddad',
  'Brandt',
  'Çelik',
  'Moreau',
  'Krüger',
  'Silva',
  'Petrović',
  'Okafor',
  'Bauer',
  'Costa',
  'Sørensen',
];
const nicknames = [
  'sonnenschein ☀️',
  'SolarFan',
  'kiosk_lover',
  'Green Energy Collective',
  'Die Nachbarn aus Nr. 7',
  '🌻 Sunny',
  'Café Glück',
  'TeamBerlin',
  'Anonymous Backer',
  'grandma & grandpa',
  'Ökodorf e.V.',
  'Jo',
  'M.',
  '李明',
  'محمد',
];
const cities: readonly (readonly [string, string])[] = [
  ['Berlin', 'DE'],
  ['München', 'DE'],
  ['Köln', 'DE'],
  ['Wien', 'AT'],
  ['Zürich', 'CH'],
  ['Lyon', 'FR'],
  ['Kraków', 'PL'],
  ['Malmö', 'SE'],
  ['Porto', 'PT'],
  ['Sevilla', 'ES'],
  ['İstanbul', 'TR'],
  ['Düsseldorf', 'DE'],
  ['Graz', 'AT'],
  ['Aarhus', 'DK'],
  ['Brno', 'CZ'],
  ['Dublin', 'IE'],
  ['Amsterdam', 'NL'],
  ['Göttingen', 'DE'],
];
const wallMessages = [
  'Tolles Projekt, viel Erfolg! 🎉',
  'Can’t wait to see the kiosk in our street ☀️',
  'Endlich Solarstrom für alle – weiter so!',
  'Just backed, good luck team!',
  'Wann kommt das T-Shirt? 😄',
  'Great idea. Shared it with my neighbours.',
  'Bonne chance ! 🌞',
  '¡Mucha suerte con el proyecto!',
  'Vi ses på invigningen!',
  'Powodzenia! 💪',
  'Ich hoffe, ihr schafft das Ziel. Grüße aus Köln',
  'Love it ❤️',
  'Kann man auch zwei Kits bestellen?',
  'Fingers crossed 🤞 for the stretch goal',
  'Supporting from Japan 🇯🇵 がんばって！',
];

export interface Person {
  readonly firstName: string;
  readonly lastName: string;
  readonly displayName: string;
  readonly city: string;
  readonly country: string;
}

export interface NameGenerator {
  person(): Person;
  wallMessage(): string;
  blogPost(index: number): { title: string; text: string };
}

/**
 * @param hostileRate share (0..1) of names and messages replaced by a hostile string.
 */
export function createNameGenerator(random: Random, options: { hostileRate?: number } = {}): NameGenerator {
  const hostileRate = options.hostileRate ?? 0;
  const hostile = () => hostileRate > 0 && random.next() < hostileRate;
  return {
    person() {
      const firstName = pick(random, firstNames);
      const lastName = pick(random, lastNames);
      const [city, country] = pick(random, cities);
      let displayName: string;
      if (hostile()) displayName = pick(random, hostileTexts);
      else if (random.next() < 0.15) displayName = pick(random, nicknames);
      else if (random.next() < 0.3) displayName = `${firstName} ${lastName.charAt(0)}.`;
      else displayName = `${firstName} ${lastName}`;
      return { firstName, lastName, displayName, city, country };
    },
    wallMessage() {
      return hostile() ? pick(random, hostileTexts) : pick(random, wallMessages);
    },
    blogPost(index) {
      const topics = [
        'Day one',
        'Update',
        'Behind the scenes',
        'Stretch goal',
        'Production news',
        'Thank you',
      ];
      const title = hostile() ? pick(random, hostileTexts) : `${pick(random, topics)} #${index + 1}`;
      const paragraphs: string[] = [];
      const count = 3 + Math.floor(random.next() * 8);
      for (let i = 0; i < count; i++) {
        paragraphs.push(
          `<p>${pick(random, wallMessages)} Wir berichten über Fortschritte, Lieferanten und die nächsten Schritte. ` +
            'The solar panels arrived, the prototype runs all day, and the community helped paint the kiosk. ' +
            'Danke an alle Unterstützerinnen und Unterstützer für die großartige Hilfe in den letzten Tagen.</p>',
        );
      }
      return { title, text: paragraphs.join('\n') };
    },
  };
}
