// The transcript's message views, in one module the conversation requires on its first message
// (conversation.ts): a new session's first frame draws none of them, so neither their modules nor
// pi-tui's Box and Image are evaluated before it.
export { AssistantMessageView } from "./assistant-message.ts";
export { BashExecutionView } from "./bash-execution.ts";
export { CustomEntryView, CustomMessageView } from "./custom-message.ts";
export { ToolCallView } from "./tool-call.ts";
export { UserMessageView } from "./user-message.ts";
