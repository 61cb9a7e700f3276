import { type DigestSection, type FailureKind, failureEnglish } from '../../domain/engine-notes.js';
import type { FeedName } from '../../domain/feeds.js';

/**
 * The words of the engine's notes (domain/engine-notes.ts), per locale. Values come
 * in already formatted (times by the one time formatter, counts by the locale).
 */
export interface NoteCatalog {
  /** "the API key lacks wall:read: wall notices are off". */
  readonly scopeMissing: (scope: string, feed: FeedName) => string;
  readonly scopeRestored: (scope: string, feed: FeedName) => string;
  readonly keyRejected: string;
  readonly keyWrongProject: string;
  readonly keyAccepted: string;
  /** `feed` is the feed's name as /status shows it; `until` a formatted time. */
  readonly rateLimited: (feed: string, until: string) => string;
  readonly pollFailed: (feed: string, failure: string) => string;
  readonly budgetWait: (until: string) => string;
  readonly leaseElsewhere: string;
  readonly stateRebaselined: string;
  readonly storeWriteRefused: string;
  /** `feed` is the feed's name as /status shows it. */
  readonly floodHeld: (feed: string, held: string) => string;
  readonly sectionUnavailable: (section: DigestSection) => string;
  readonly failures: Readonly<Record<FailureKind, string>>;
  /** A failure with its HTTP status: "the platform answered with an error (HTTP 502)". */
  readonly withStatus: (failure: string, status: string) => string;
}

/** What stops when a feed is off. */
const offEn: Readonly<Record<FeedName, string>> = {
  fundings: 'supporter notices are off',
  project: 'the project is not polled',
  wall: 'wall notices are off',
  blog: 'blog notices are off',
  incentives: 'reward notices are off',
};

const offDe: Readonly<Record<FeedName, string>> = {
  fundings: 'Unterstützer-Meldungen sind aus',
  project: 'das Projekt wird nicht abgefragt',
  wall: 'Pinnwand-Meldungen sind aus',
  blog: 'Blog-Meldungen sind aus',
  incentives: 'Dankeschön-Meldungen sind aus',
};

const onEn: Readonly<Record<FeedName, string>> = {
  fundings: 'supporter notices are back on',
  project: 'the project is polled again',
  wall: 'wall notices are back on',
  blog: 'blog notices are back on',
  incentives: 'reward notices are back on',
};

const onDe: Readonly<Record<FeedName, string>> = {
  fundings: 'Unterstützer-Meldungen sind wieder an',
  project: 'das Projekt wird wieder abgefragt',
  wall: 'Pinnwand-Meldungen sind wieder an',
  blog: 'Blog-Meldungen sind wieder an',
  incentives: 'Dankeschön-Meldungen sind wieder an',
};

export const notesEn: NoteCatalog = {
  scopeMissing: (scope, feed) => `the API key lacks ${scope}: ${offEn[feed]}`,
  scopeRestored: (scope, feed) => `the API key has ${scope} again: ${onEn[feed]}`,
  keyRejected: 'the platform rejected the API key (invalid, disabled or deleted)',
  keyWrongProject: 'the platform says the API key belongs to another project',
  keyAccepted: 'the API key is accepted again: polling resumes',
  rateLimited: (feed, until) => `${feed}: rate limited, next try at ${until}`,
  pollFailed: (feed, failure) => `${feed}: ${failure}`,
  budgetWait: (until) => `the request budget is kept for commands until ${until}`,
  leaseElsewhere: 'another fundbot replica polls this project',
  stateRebaselined: 'the stored state could not be read: fundbot started again from the current lists',
  storeWriteRefused: 'the store refused a write: delivery progress is kept in memory until it recovers',
  floodHeld: (feed, held) => `${feed}: ${held} new-looking entries at once were held, not announced`,
  sectionUnavailable: (section) =>
    ({ rewards: 'rewards not available', wall: 'wall not available', blog: 'blog not available' })[section],
  // The same words the operator's log uses: one table (domain/engine-notes.ts).
  failures: failureEnglish,
  withStatus: (failure, status) => `${failure} (HTTP ${status})`,
};

export const notesDe: NoteCatalog = {
  scopeMissing: (scope, feed) => `dem API-Schlüssel fehlt ${scope}: ${offDe[feed]}`,
  scopeRestored: (scope, feed) => `der API-Schlüssel hat wieder ${scope}: ${onDe[feed]}`,
  keyRejected: 'die Plattform lehnt den API-Schlüssel ab (ungültig, deaktiviert oder gelöscht)',
  keyWrongProject: 'laut Plattform gehört der API-Schlüssel zu einem anderen Projekt',
  keyAccepted: 'der API-Schlüssel wird wieder angenommen: die Abfragen laufen weiter',
  rateLimited: (feed, until) => `${feed}: Anfragelimit erreicht, nächster Versuch um ${until}`,
  pollFailed: (feed, failure) => `${feed}: ${failure}`,
  budgetWait: (until) => `das Anfragebudget bleibt bis ${until} für Befehle reserviert`,
  leaseElsewhere: 'eine andere fundbot-Instanz fragt dieses Projekt ab',
  stateRebaselined:
    'der gespeicherte Stand war nicht lesbar: fundbot hat mit den aktuellen Listen neu angefangen',
  storeWriteRefused:
    'der Speicher hat einen Schreibvorgang abgelehnt: der Zustellstand bleibt im Speicher, bis er wieder geht',
  floodHeld: (feed, held) =>
    `${feed}: ${held} scheinbar neue Einträge auf einmal zurückgehalten, nicht gemeldet`,
  sectionUnavailable: (section) =>
    ({
      rewards: 'Dankeschöns nicht verfügbar',
      wall: 'Pinnwand nicht verfügbar',
      blog: 'Blog nicht verfügbar',
    })[section],
  failures: {
    timeout: 'die Plattform hat nicht rechtzeitig geantwortet',
    unreachable: 'die Plattform war nicht erreichbar',
    'rate-limited': 'die Plattform hat fundbot gebremst',
    'bad-response': 'die Plattform hat eine unverständliche Antwort geschickt',
    'key-refused': 'die Plattform hat den API-Schlüssel abgelehnt',
    forbidden: 'der API-Schlüssel darf das nicht lesen',
    'http-error': 'die Plattform hat mit einem Fehler geantwortet',
    internal: 'ein interner Fehler (der Betreiber findet ihn im Log)',
  },
  withStatus: (failure, status) => `${failure} (HTTP ${status})`,
};
