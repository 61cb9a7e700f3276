/** A planted file and the rule that must refuse it (`rule: null`: a control that must lint clean). */
export interface Probe {
  readonly path: string;
  readonly code: string;
  readonly rule: 'noRestrictedImports' | 'noImportCycles' | 'noProcessEnv' | 'noExcessiveLinesPerFile' | null;
  /** A fragment of the diagnostic's message, proving the refusal comes from the intended layer's entry. */
  readonly says?: string;
}
