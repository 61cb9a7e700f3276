/** What went wrong, for tests and tooling to branch on; the text is in `message` and `fix`. */
export type ConfigProblemCode =
  | 'file_not_found'
  | 'file_unreadable'
  | 'invalid_json'
  | 'invalid_value'
  | 'unknown_key'
  | 'secret_in_file'
  | 'env_missing'
  | 'env_invalid'
  | 'key_format'
  | 'duplicate'
  | 'port_clash'
  | 'tokens_without_config';

/**
 * One problem with the configuration: where (`path`, e.g. `projects[0].apiKeyEnv`
 * or `env SLACK_APP_TOKEN`), what is wrong, and what to do about it. Never
 * contains a secret value, only the names of the variables that hold them.
 */
export interface ConfigProblem {
  readonly code: ConfigProblemCode;
  readonly path: string;
  readonly message: string;
  readonly fix: string;
}

/** `path: message: fix` on one line. */
export function formatConfigProblem(problem: ConfigProblem): string {
  return `${problem.path}: ${problem.message}: ${problem.fix}`;
}

/**
 * A readable multi-line report of every problem, for stderr at start-up:
 *
 * ```
 * fundbot cannot start: 2 problems in the configuration (./fundbot.config.json)
 *   1. projects[0].apiKeyEnv: SOLAR_KIOSK_API_KEY is not set: export it with the Project API key …
 *   2. digest.timeZone: "Europe/Berln" is not a time zone: use an IANA name such as "Europe/Berlin"
 * See docs/configuration.md for every field.
 * ```
 */
export function formatConfigProblems(problems: readonly ConfigProblem[], source?: string): string {
  const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
  const where = source === undefined ? '' : ` (${source})`;
  const lines = problems.map((p, i) => `  ${i + 1}. ${formatConfigProblem(p)}`);
  return [
    `fundbot cannot start: ${count} in the configuration${where}`,
    ...lines,
    'See docs/configuration.md for every field.',
  ].join('\n');
}
