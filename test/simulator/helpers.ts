import type { ProjectSeed, Simulator, SimulatorOptions } from '../../src/simulator/index.js';
import { startSimulator } from '../../src/simulator/index.js';
import { ManualClock } from '../support/manual-clock.js';

/** 2026-03-02 10:00:00 UTC: a Monday morning, mid-minute so window edges are visible. */
export const t0 = Date.UTC(2026, 2, 2, 10, 0, 30);

export interface Harness {
  sim: Simulator;
  clock: ManualClock;
}

/** A simulator on a ManualClock; remember to close it (afterEach). */
export async function startHarness(options: SimulatorOptions = {}): Promise<Harness> {
  const clock = new ManualClock(t0);
  const sim = await startSimulator({ clock, ...options });
  return { sim, clock };
}

export interface JsonResponse {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: test bodies are inspected ad hoc, field by field
  body: any;
}

/** GET with an optional Bearer key; parses the JSON body. */
export async function get(
  sim: Simulator,
  path: string,
  key?: string,
  init: RequestInit = {},
): Promise<JsonResponse> {
  const headers = new Headers(init.headers);
  if (key !== undefined) headers.set('authorization', `Bearer ${key}`);
  const response = await fetch(`${sim.url}${path}`, { ...init, headers });
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: response.status, headers: response.headers, body };
}

/** A small all-or-nothing project builder with sensible defaults. */
export function projectSeed(overrides: Partial<ProjectSeed> & { linkCaption?: string } = {}): ProjectSeed {
  return {
    linkCaption: 'test-project',
    title: 'Test project',
    currency: 'EUR',
    fundingThreshold: 1000,
    allOrNothing: true,
    ownerId: 7,
    ...overrides,
  };
}
