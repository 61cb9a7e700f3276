import {
  isLowStockThreshold,
  lowStockMaxThreshold,
  lowStockMinThreshold,
} from '../../domain/reward-stock.js';
import { singleLine } from '../../domain/text.js';
import { limits } from '../../domain/text-limits.js';
import { formatNumber } from '../format.js';
import type { NeutralMessage } from '../message.js';
import { type CommandRun, typedCommand } from './command-run.js';

/**
 * /lowstock <n>|off: the count of a reward left at which this channel is told "last n
 * left" (once per drop below it, src/domain/reward-stock.ts). One store write; no
 * platform request.
 */
export async function lowStockCommand(run: CommandRun): Promise<NeutralMessage> {
  const texts = run.t.rewardStock;
  const given = String(run.invocation.options['threshold'] ?? '')
    .trim()
    .toLowerCase();
  const settings = run.deps.lowStock;
  if (!settings) {
    // Only a core built without the setting (a test double) gets here: the app always wires it.
    return { text: run.t.errors.internal, tone: 'error', private: true };
  }
  const channel = run.invocation.context.channel;
  if (given === 'off') {
    await settings.set(channel, undefined);
    return { text: texts.thresholdOff, tone: 'success', private: true };
  }
  const threshold = /^\d{1,6}$/.test(given) ? Number(given) : Number.NaN;
  if (!isLowStockThreshold(threshold)) {
    return {
      text: texts.badThreshold(singleLine(given, limits.name), lowStockMinThreshold, lowStockMaxThreshold),
      tone: 'error',
      private: true,
    };
  }
  await settings.set(channel, threshold);
  return {
    text: texts.thresholdSet(threshold, formatNumber(threshold, run.locale), typedCommand(run, 'subscribe')),
    tone: 'success',
    private: true,
  };
}
