/**
 * What the fake Slack received, in order: Web API calls with their outcome, uploaded
 * bytes, `respond()` bodies and Socket Mode acks; and waits until a test's probe
 * finds what it expects, checked again on every change.
 */
import { EventEmitter } from 'node:events';

export interface RecordedCall {
  readonly method: string;
  readonly args: Record<string, unknown>;
  /** The bearer token the call carried (compare, never print). */
  readonly token: string | undefined;
  /** What the fake answered. */
  readonly outcome: 'ok' | string;
  /** When the call arrived (the fake's clock, epoch ms). */
  readonly at: number;
}

export interface RecordedUpload {
  readonly fileId: string;
  readonly bytes: Uint8Array;
}

export interface RecordedResponse {
  readonly id: string;
  readonly body: Record<string, unknown>;
}

export interface RecordedAck {
  readonly envelopeId: string;
  readonly payload: unknown;
}

export interface TrafficLog {
  readonly calls: readonly RecordedCall[];
  readonly uploads: readonly RecordedUpload[];
  readonly responses: readonly RecordedResponse[];
  readonly acks: readonly RecordedAck[];
  recordCall(call: RecordedCall): void;
  recordUpload(upload: RecordedUpload): void;
  recordResponse(response: RecordedResponse): void;
  recordAck(ack: RecordedAck): void;
  /** Something else a probe may read changed (a Socket Mode connection opened or closed). */
  changed(): void;
  callsTo(method: string): readonly RecordedCall[];
  /** Resolves when `probe` returns a value (checked on every change), rejects after `timeoutMs`. */
  waitFor<T>(probe: () => T | undefined | false, description: string, timeoutMs?: number): Promise<T>;
}

export function createTrafficLog(): TrafficLog {
  const calls: RecordedCall[] = [];
  const uploads: RecordedUpload[] = [];
  const responses: RecordedResponse[] = [];
  const acks: RecordedAck[] = [];
  const events = new EventEmitter();
  const changed = () => {
    events.emit('record');
  };

  return {
    calls,
    uploads,
    responses,
    acks,
    recordCall: (call) => {
      calls.push(call);
      changed();
    },
    recordUpload: (upload) => {
      uploads.push(upload);
      changed();
    },
    recordResponse: (response) => {
      responses.push(response);
      changed();
    },
    recordAck: (ack) => {
      acks.push(ack);
      changed();
    },
    changed,
    callsTo: (method) => calls.filter((c) => c.method === method),
    // 15 s by default, as waitUntil: a deadline, not a pace (5 s is tight for a bot on the loaded 2-core machine).
    waitFor: <T>(probe: () => T | undefined | false, description: string, timeoutMs = 15_000) =>
      new Promise<T>((resolve, reject) => {
        const check = () => {
          const value = probe();
          if (value === undefined || value === false) return;
          cleanup();
          resolve(value);
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`fake Slack: timed out waiting for ${description}`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          events.off('record', check);
        };
        events.on('record', check);
        check();
      }),
  };
}
