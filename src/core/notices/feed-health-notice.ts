import type { FeedHealthEvent, FeedStop, FeedStopCause } from '../../domain/events.js';
import type { FeedName } from '../../domain/feeds.js';
import { singleLine } from '../../domain/text.js';
import { limits } from '../../domain/text-limits.js';
import type { Locale } from '../command-core.js';
import { catalogFor } from '../i18n/index.js';
import type { NeutralMessage } from '../message.js';
import { formatDateTime } from '../time-format.js';

/**
 * The words of a feed-health notice (issue 32), per locale: what stopped, why, and who fixes it how. Only
 * fundbot's own words and data (the project's slug, a scope's name, times): never the key, never an error's text.
 */
interface FeedHealthTexts {
  /** "Supporter notices of solar-kiosk have stopped" (`what` from {@link FeedHealthTexts.what}). */
  readonly stoppedTitle: (what: string, project: string) => string;
  readonly resumedTitle: (what: string, project: string) => string;
  /** What stopped: every notice of the project, or one feed's. */
  readonly what: Readonly<Record<FeedName | 'all', string>>;
  /** Why, with the time the stop began. */
  readonly why: (stop: FeedStop, since: string) => string;
  /** Who fixes it and how. */
  readonly fix: (stop: FeedStop) => string;
  /** "Stopped since …, working again since …". */
  readonly resumedText: (cause: string, since: string, until: string) => string;
  /** The cause in a few words, for the resume. */
  readonly cause: Readonly<Record<FeedStopCause, string>>;
  /** After a stop of the whole project: what happened meanwhile is announced when it resumes. */
  readonly catchUp: string;
}

const en: FeedHealthTexts = {
  stoppedTitle: (what, project) => `${what} of ${project} have stopped`,
  resumedTitle: (what, project) => `✅ ${what} of ${project} are back`,
  what: {
    all: 'Notices',
    fundings: 'Supporter notices',
    project: 'Milestone and status notices',
    wall: 'Wall notices',
    blog: 'Blog notices',
    incentives: 'Reward notices',
  },
  why: (stop, since) => {
    switch (stop.cause) {
      case 'key-rejected':
        return `Since ${since} the crowdfunding platform refuses the API key fundbot reads this project with (invalid, disabled or deleted).`;
      case 'key-wrong-project':
        return `Since ${since} the platform says the API key fundbot has for this project belongs to another project.`;
      case 'scope-missing':
        return `Since ${since} the project's API key lacks the ${stop.scope ?? ''} permission.`;
      case 'unreachable':
        return `fundbot has not been able to read the platform's API since ${since}.`;
    }
  },
  fix: (stop) => {
    switch (stop.cause) {
      case 'key-rejected':
        return stop.connected
          ? 'To fix: an admin of this workspace connects the project again with a new Project API key (project administration → API keys, then the connect command), or enables the key again.'
          : "To fix: the project's team creates a new Project API key (project administration → API keys) and fundbot's operator puts it in fundbot's configuration, or the team enables the key again.";
      case 'key-wrong-project':
        return stop.connected
          ? 'To fix: an admin of this workspace connects the project again with a Project API key of this project (project administration → API keys).'
          : "To fix: fundbot's operator puts a Project API key of this project in fundbot's configuration (project administration → API keys).";
      case 'scope-missing':
        return `To fix: a project admin adds ${stop.scope ?? 'the permission'} to the key in project administration → API keys; fundbot checks again on its own and resumes.`;
      case 'unreachable':
        return "Nothing to do here: fundbot keeps trying. If it lasts, fundbot's operator checks its network and the platform's status.";
    }
  },
  resumedText: (cause, since, until) => `Stopped since ${since} (${cause}); working again since ${until}.`,
  cause: {
    'key-rejected': 'API key refused',
    'key-wrong-project': 'API key of another project',
    'scope-missing': 'API key permission missing',
    unreachable: 'platform API out of reach',
  },
  catchUp: 'What happens meanwhile is announced once it works again.',
};

const de: FeedHealthTexts = {
  stoppedTitle: (what, project) => `${what} von ${project} sind gestoppt`,
  resumedTitle: (what, project) => `✅ ${what} von ${project} laufen wieder`,
  what: {
    all: 'Meldungen',
    fundings: 'Unterstützer-Meldungen',
    project: 'Meilenstein- und Status-Meldungen',
    wall: 'Pinnwand-Meldungen',
    blog: 'Blog-Meldungen',
    incentives: 'Dankeschön-Meldungen',
  },
  why: (stop, since) => {
    switch (stop.cause) {
      case 'key-rejected':
        return `Seit ${since} lehnt die Crowdfunding-Plattform den API-Schlüssel ab, mit dem fundbot dieses Projekt liest (ungültig, deaktiviert oder gelöscht).`;
      case 'key-wrong-project':
        return `Seit ${since} meldet die Plattform, dass fundbots API-Schlüssel für dieses Projekt zu einem anderen Projekt gehört.`;
      case 'scope-missing':
        return `Seit ${since} fehlt dem API-Schlüssel des Projekts die Berechtigung ${stop.scope ?? ''}.`;
      case 'unreachable':
        return `fundbot kann die API der Plattform seit ${since} nicht lesen.`;
    }
  },
  fix: (stop) => {
    switch (stop.cause) {
      case 'key-rejected':
        return stop.connected
          ? 'Abhilfe: Ein Admin dieses Workspaces verbindet das Projekt neu mit einem neuen Projekt-API-Schlüssel (Projektverwaltung → API-Schlüssel, dann der Verbinden-Befehl) oder aktiviert den Schlüssel wieder.'
          : 'Abhilfe: Das Projektteam erstellt einen neuen Projekt-API-Schlüssel (Projektverwaltung → API-Schlüssel) und der Betreiber von fundbot trägt ihn in fundbots Konfiguration ein, oder das Team aktiviert den Schlüssel wieder.';
      case 'key-wrong-project':
        return stop.connected
          ? 'Abhilfe: Ein Admin dieses Workspaces verbindet das Projekt neu mit einem Projekt-API-Schlüssel dieses Projekts (Projektverwaltung → API-Schlüssel).'
          : 'Abhilfe: Der Betreiber von fundbot trägt einen Projekt-API-Schlüssel dieses Projekts in fundbots Konfiguration ein (Projektverwaltung → API-Schlüssel).';
      case 'scope-missing':
        return `Abhilfe: Ein Projekt-Admin ergänzt ${stop.scope ?? 'die Berechtigung'} am Schlüssel unter Projektverwaltung → API-Schlüssel; fundbot prüft selbst erneut und macht weiter.`;
      case 'unreachable':
        return 'Hier ist nichts zu tun: fundbot versucht es weiter. Dauert es an, prüft der Betreiber von fundbot das Netzwerk und den Status der Plattform.';
    }
  },
  resumedText: (cause, since, until) => `Gestoppt seit ${since} (${cause}); läuft wieder seit ${until}.`,
  cause: {
    'key-rejected': 'API-Schlüssel abgelehnt',
    'key-wrong-project': 'API-Schlüssel eines anderen Projekts',
    'scope-missing': 'Berechtigung des API-Schlüssels fehlt',
    unreachable: 'API der Plattform nicht erreichbar',
  },
  catchUp: 'Was in der Zwischenzeit passiert, wird gemeldet, sobald es wieder läuft.',
};

/** A feed-health event as the channel reads it, in its language and on its clock. */
export function renderFeedHealth(event: FeedHealthEvent, locale: Locale, timeZone: string): NeutralMessage {
  const t = locale === 'de' ? de : en;
  const project = singleLine(event.project, limits.title);
  const what = t.what[event.stop.feed];
  const since = formatDateTime(event.since, locale, timeZone);
  const footer = catalogFor(locale).notices.footer(project);
  if (event.change === 'resumed') {
    return {
      title: t.resumedTitle(what, project),
      text: t.resumedText(
        t.cause[event.stop.cause],
        since,
        formatDateTime(event.detectedAt, locale, timeZone),
      ),
      tone: 'success',
      footer,
    };
  }
  const wholeProject = event.stop.feed === 'all';
  return {
    title: t.stoppedTitle(what, project),
    text: [t.why(event.stop, since), t.fix(event.stop), ...(wholeProject ? [t.catchUp] : [])].join('\n'),
    tone: 'warning',
    footer,
  };
}
