/** The console adapter: a terminal REPL over the command core and a poster for notices. */
export { consoleChannel, createConsolePoster } from './console-poster.js';
export {
  type ConsoleAdapter,
  type ConsoleAdapterOptions,
  createConsoleAdapter,
} from './create-console-adapter.js';
export { renderConsoleMessage, terminalSafe } from './render-console-message.js';
