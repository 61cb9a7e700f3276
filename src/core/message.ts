/** The neutral message model lives in src/domain (the vocabulary core, delivery and the adapters share). */
export type {
  MessageField,
  MessageImage,
  MessageLink,
  NeutralMessage,
  ProgressBar,
} from '../domain/neutral-message.js';
