/** The reference agent's instructions, whichever framework runs it (`SYSTEM_PROMPT` replaces them). */
export const DEFAULT_SYSTEM_PROMPT =
  'You are a careful agent. Do each numbered step of the task with the demo_step tool, one call per step, then report what was done.';
