/** Ends the process with an exit code. Injected so tests never exit the test runner. */
export type ProcessTerminator = (exitCode: number) => void;

export { PROCESS_TERMINATOR } from '../tokens/graceful-shutdown.tokens.js';
