// The module's injection tokens, in a leaf file that imports nothing: a service reaches a
// token here, never through another folder's implementation.

/** Injection token of the resolved options (`ResolvedShutdownOptions`). */
export const RESOLVED_SHUTDOWN_OPTIONS = Symbol('RESOLVED_SHUTDOWN_OPTIONS');

/** Injection token of the session store (`SessionStore`). */
export const SESSION_STORE = Symbol('SESSION_STORE');

/** Injection token of the signal bus (`SignalBus`). */
export const SIGNAL_BUS = Symbol('SIGNAL_BUS');

/** Injection token of the run event log (`RunEventLog`). */
export const RUN_EVENT_LOG = Symbol('RUN_EVENT_LOG');

/** Injection token of the thread access policy (`ThreadAccessPolicy`). */
export const THREAD_ACCESS_POLICY = Symbol('THREAD_ACCESS_POLICY');

/** Injection token of the process terminator (`ProcessTerminator`); the default calls `process.exit`. */
export const PROCESS_TERMINATOR = Symbol('PROCESS_TERMINATOR');

/** Injection token of the signal bus the module made itself, and closes at shutdown. */
export const OWNED_SIGNAL_BUS = Symbol('OWNED_SIGNAL_BUS');

/** Injection token of the run event log the module made itself, and closes at shutdown. */
export const OWNED_RUN_EVENT_LOG = Symbol('OWNED_RUN_EVENT_LOG');
