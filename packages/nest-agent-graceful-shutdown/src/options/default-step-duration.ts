/**
 * How long a model call or tool that declares no duration is expected to take, in milliseconds:
 * the default of `runs.defaultStepDurationMs`, and what a `GracefulShutdownHook` built without
 * that option assumes. One definition, so the module and a hook made by hand drain alike.
 */
export const DEFAULT_STEP_DURATION_MS = 5_000;
