/**
 * The chat journey: one fundbot process (then a second on the same store) carries every step, in order, against
 * one platform in one mode. Each step is a test of its own, so the report says which promise of the README
 * holds and which does not; a step that meets a known defect of issue 23 is `it.fails` (see known-defects.js).
 */
import { describe } from 'vitest';
import type { ChatDriver } from './chat-driver.js';
import { registerCommandSteps } from './chat-journey-commands.js';
import { registerLateAnswerSteps } from './chat-journey-late-answer.js';
import { registerLayoutSteps } from './chat-journey-layout.js';
import { registerNoticeSteps } from './chat-journey-notices.js';
import { registerRestartSteps } from './chat-journey-restart.js';
import { type ChatJourneyOptions, journeyHooks } from './chat-journey-state.js';
import { registerSubscribeSteps } from './chat-journey-subscribe.js';

export function defineChatJourney<D extends ChatDriver>(title: string, options: ChatJourneyOptions<D>): void {
  describe(title, () => {
    const state = journeyHooks(options);
    registerSubscribeSteps(state, options);
    options.platformSteps?.(state);
    registerNoticeSteps(state);
    registerLateAnswerSteps(state);
    registerLayoutSteps(state);
    registerCommandSteps(state);
    registerRestartSteps(state, options);
  });
}
