// `@earendil-works/pi-agent-core` for extensions written for pi 1.6: its runtime values exist so
// such extensions load (they mostly import its types). The agent runs its own loop, so pi's Agent
// class and loop functions throw `not supported by agent: <name>` when used.
import { unsupported } from "../src/core/compat/unsupported.ts";

// pi-agent-core's types extensions import: the agent's own message, tool and thinking-level types.
export type { AgentMessage } from "../src/core/agent/messages.ts";
export type { AgentTool, AgentToolResult, AgentToolUpdateCallback } from "../src/core/tools/types.ts";
export type { ThinkingLevel } from "../src/core/providers/types.ts";

export const DEFAULT_AGENT_IDENTITY = { name: "agent", version: process.env.AGENT_BUILD_VERSION ?? "0.0.0" };
export const Agent = unsupported("Agent");
export const agentLoop = unsupported("agentLoop");
export const agentLoopContinue = unsupported("agentLoopContinue");
export const runAgentLoop = unsupported("runAgentLoop");
export const runAgentLoopContinue = unsupported("runAgentLoopContinue");
export const runToolCall = unsupported("runToolCall");
export const setDefaultStreamFn = unsupported("setDefaultStreamFn");
export const streamProxy = unsupported("streamProxy");
