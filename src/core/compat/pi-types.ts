// Type names pi 1.6's examples and extensions import from the framework, as aliases of ours
// (types only: nothing here exists at run time).
import type { BuildSystemPromptOptions } from "../agent/system-prompt.ts";
import type { BashParams, EditParams, FindParams, GrepParams, LsParams, ReadParams, WriteParams } from "../tools/index.ts";
import type {
	BoundaryResult,
	ExtensionContext,
	ExtensionMode,
	ExtensionUIContext,
	InputEvent,
	MessageEndResult,
	ProjectTrustEvent,
	ProjectTrustResult,
	BeforeAgentStartResult,
	ContextResult,
} from "../extensions/types.ts";

export type { BuildSystemPromptOptions };
export type NormalizedBuildSystemPromptOptions = Required<Pick<BuildSystemPromptOptions, "selectedTools" | "toolSnippets" | "promptGuidelines">> & BuildSystemPromptOptions;
export type {
	BranchSummaryEntry,
	CompactionEntry,
	CustomEntry,
	CustomMessageEntry,
	LabelEntry,
	ModelChangeEntry,
	SessionContext,
	SessionEntryBase,
	SessionHeader,
	SessionInfo,
	SessionInfoEntry,
	SessionMessageEntry,
	SessionTreeNode,
	ThinkingLevelChangeEntry,
} from "../session/session-entries.ts";
export type { CompactionSettings } from "../session/compaction.ts";

export type ReadToolInput = ReadParams;
export type BashToolInput = BashParams;
export type EditToolInput = EditParams;
export type WriteToolInput = WriteParams;
export type GrepToolInput = GrepParams;
export type FindToolInput = FindParams;
export type LsToolInput = LsParams;

export type ProjectTrustEventDecision = "yes" | "no" | "undecided";
export type ProjectTrustEventResult = ProjectTrustResult | { trusted: "undecided"; remember?: boolean };
export interface ProjectTrustContext {
	cwd: string;
	mode: ExtensionMode;
	hasUI: boolean;
	ui: Pick<ExtensionUIContext, "select" | "confirm" | "input" | "notify">;
}
export type ProjectTrustHandler = (event: ProjectTrustEvent, ctx: ProjectTrustContext) => ProjectTrustEventResult | Promise<ProjectTrustEventResult>;

export type InputSource = InputEvent["source"];
export type BeforeAgentStartEventResult = BeforeAgentStartResult;
export type ContextEventResult = ContextResult;
export type MessageEndEventResult = MessageEndResult;
export type TurnEndEventResult = BoundaryResult;
export type AgentBeforeSettleEventResult = BoundaryResult;
export type ExtensionContextActions = Pick<ExtensionContext, "abort" | "shutdown" | "compact" | "getContextUsage">;
