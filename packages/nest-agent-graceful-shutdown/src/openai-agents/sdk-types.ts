/* eslint-disable @typescript-eslint/no-explicit-any -- the SDK's agents, tools and states are generic in context and output; the adapter carries any */
import type { Agent, FunctionTool, RunState, Tool } from '@openai/agents';

/** An SDK agent of any output type. */
export type SdkAgent<TContext = any> = Agent<TContext, any>;
/** An SDK tool of any context. */
export type SdkTool = Tool<any>;
/** An SDK function tool of any context. */
export type SdkFunctionTool = FunctionTool<any>;
/** An SDK run state of any agent. */
export type SdkRunState<TContext = any> = RunState<TContext, SdkAgent<TContext>>;
