/** Ends the process with an exit code. Injected so tests never exit the test runner. */
export type ProcessTerminator = (exitCode: number) => void;

/** Injection token of the terminator; the default calls `process.exit`. */
export const PROCESS_TERMINATOR = Symbol('PROCESS_TERMINATOR');
