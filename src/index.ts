// The public API: what `@scope/coding-agent` serves to extensions and to programs embedding the
// agent. Re-exports only; every name here is part of the contract (SPEC §2).
export * from "./core/extensions/types.ts";
export { defineTool } from "./core/extensions/define-tool.ts";
export { isToolCallEventType, EXTENSION_EVENT_NAMES } from "./core/extensions/event-types.ts";
export { createEventBus, type EventBusController } from "./core/extensions/event-bus.ts";
export { ExtensionRuntime, createExtensionAPI } from "./core/extensions/api.ts";
export { discoverAndLoadExtensions, type DiscoverAndLoadOptions } from "./core/resources/resource-loader.ts";
export { loadExtensions, ExtensionLoadError, type LoadExtensionsResult } from "./core/extensions/loader.ts";
export { resolveCommandNames } from "./core/extensions/commands.ts";
export { convertToLlm, textOf, type AgentMessage, type CustomMessage } from "./core/agent/messages.ts";
export { getAgentDir, VERSION, APP_NAME, CONFIG_DIR_NAME } from "./config.ts";
export type { AgentTool, AgentToolResult, AgentToolUpdateCallback } from "./core/tools/types.ts";
export type * from "./core/providers/types.ts";
export { THINKING_LEVELS } from "./core/providers/types.ts";
export * from "./core/tools/index.ts";
export { SessionManager, type ReadonlySessionManager as SessionReader } from "./core/session/session-manager.ts";
export { parseFrontmatter, stripFrontmatter } from "./core/resources/frontmatter.ts";
export { serializeConversation } from "./core/session/compaction.ts";
export { ModelRegistry } from "./core/providers/registry.ts";
export { complete, stream } from "./core/providers/stream.ts";
export { createAssistantMessageEventStream } from "./core/providers/event-stream.ts";
export { createAgentSession, type CreateAgentSessionOptions, type CreatedAgentSession } from "./core/sdk.ts";
export { AgentSession } from "./core/agent-session.ts";
export type { JsonAgentSessionEvent } from "./modes/wire-event.ts";

// ---- pi 1.6 compatibility: the rest of what pi's coding-agent package exports to extensions ----
// (real where we can, `not supported by agent: <name>` where we cannot; SPEC §2)
export * from "./core/compat/framework.ts";
export { NotSupportedError } from "./core/compat/unsupported.ts";
export type * from "./core/compat/pi-types.ts";
export type { McpExposure, McpHttpServerConfig, McpServerConfig, McpStdioServerConfig } from "./core/mcp/server-config.ts";
export type { RegisteredMcpServer } from "./core/mcp/registry.ts";

// TUI helpers extensions import (pi 1.6's names); the real modules load on first use.
export {
	BorderedLoader,
	CustomEditor,
	DynamicBorder,
	KeybindingsManager,
	Theme,
	getEditorTheme,
	getLanguageFromPath,
	getMarkdownTheme,
	getSelectListTheme,
	getSettingsListTheme,
	highlightCode,
	keyHint,
	keyText,
	rawKeyHint,
	renderDiff,
	type RenderDiffOptions,
	truncateToVisualLines,
	initTheme,
	ArminComponent,
	AssistantMessageComponent,
	BashExecutionComponent,
	BranchSummaryMessageComponent,
	CompactionSummaryMessageComponent,
	CustomMessageComponent,
	ExtensionEditorComponent,
	ExtensionInputComponent,
	ExtensionSelectorComponent,
	FooterComponent,
	LoginDialogComponent,
	ModelSelectorComponent,
	OAuthSelectorComponent,
	SessionSelectorComponent,
	SettingsSelectorComponent,
	ShowImagesSelectorComponent,
	SkillInvocationMessageComponent,
	ThemeSelectorComponent,
	ThinkingSelectorComponent,
	ToolExecutionComponent,
	TreeSelectorComponent,
	UserMessageComponent,
	UserMessageSelectorComponent,
} from "./tui-exports.ts";
