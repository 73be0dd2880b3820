// Whether a session line that parsed as JSON has the shape the code relies on (issue 12, defect 7):
// an assistant message whose content is a string, or null, must become a skipped line with a
// warning, not a crash on every resume. Hand-written: it runs for every line of every session loaded.

type Obj = Record<string, unknown>;

const isObject = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const isString = (v: unknown): v is string => typeof v === "string";

/** A content block of user / tool-result / custom content: text or image. */
function mediaBlockProblem(block: unknown, where: string): string | undefined {
	if (!isObject(block)) return `${where} must be an object`;
	if (block.type === "text") return isString(block.text) ? undefined : `${where}.text must be a string`;
	if (block.type === "image") return isString(block.data) && isString(block.mimeType) ? undefined : `${where} must have string "data" and "mimeType"`;
	return `${where}.type must be "text" or "image"`;
}

/** A string, or an array of text and image blocks. */
function contentProblem(content: unknown, where: string, allowString: boolean): string | undefined {
	if (allowString && isString(content)) return undefined;
	if (!Array.isArray(content)) return `${where} must be ${allowString ? "a string or " : ""}an array of content blocks`;
	for (let i = 0; i < content.length; i++) {
		const problem = mediaBlockProblem(content[i], `${where}[${i}]`);
		if (problem) return problem;
	}
	return undefined;
}

function assistantBlockProblem(block: unknown, where: string): string | undefined {
	if (!isObject(block)) return `${where} must be an object`;
	switch (block.type) {
		case "text":
			return isString(block.text) ? undefined : `${where}.text must be a string`;
		case "thinking":
			return isString(block.thinking) ? undefined : `${where}.thinking must be a string`;
		case "toolCall":
			if (!isString(block.id) || !isString(block.name)) return `${where} must have string "id" and "name"`;
			return isObject(block.arguments) ? undefined : `${where}.arguments must be an object`;
		default:
			return `${where}.type must be "text", "thinking" or "toolCall"`;
	}
}

function messageProblem(message: Obj): string | undefined {
	switch (message.role) {
		case "user":
			return contentProblem(message.content, "message.content", true);
		case "assistant": {
			const content = message.content;
			if (!Array.isArray(content)) return "message.content must be an array of content blocks";
			for (let i = 0; i < content.length; i++) {
				const problem = assistantBlockProblem(content[i], `message.content[${i}]`);
				if (problem) return problem;
			}
			if (message.usage !== undefined && !isObject(message.usage)) return "message.usage must be an object";
			return message.stopReason === undefined || isString(message.stopReason) ? undefined : "message.stopReason must be a string";
		}
		case "toolResult":
			if (!isString(message.toolCallId)) return "message.toolCallId must be a string";
			return contentProblem(message.content, "message.content", false);
		case "bashExecution":
			return isString(message.command) && isString(message.output) ? undefined : 'message must have string "command" and "output"';
		case "custom":
			if (!isString(message.customType)) return "message.customType must be a string";
			return contentProblem(message.content, "message.content", true);
		case "branchSummary":
		case "compactionSummary":
			return isString(message.summary) ? undefined : "message.summary must be a string";
		default:
			// A role from a newer version: kept, the context builder passes over what it does not know.
			return undefined;
	}
}

/** What is wrong with the entry, in words for a warning, or undefined when it can be used. */
export function entryShapeProblem(entry: Obj): string | undefined {
	switch (entry.type) {
		case "message":
			if (!isObject(entry.message) || !isString(entry.message.role)) return 'it has no "message" with a "role"';
			return messageProblem(entry.message);
		case "thinking_level_change":
			return isString(entry.thinkingLevel) ? undefined : '"thinkingLevel" must be a string';
		case "model_change":
			return isString(entry.provider) && isString(entry.modelId) ? undefined : '"provider" and "modelId" must be strings';
		case "compaction":
			if (!isString(entry.summary)) return '"summary" must be a string';
			return entry.firstKeptEntryId === undefined || isString(entry.firstKeptEntryId) ? undefined : '"firstKeptEntryId" must be a string';
		case "branch_summary":
			return isString(entry.summary) && isString(entry.fromId) ? undefined : '"summary" and "fromId" must be strings';
		case "custom":
			return isString(entry.customType) ? undefined : '"customType" must be a string';
		case "custom_message":
			if (!isString(entry.customType)) return '"customType" must be a string';
			return contentProblem(entry.content, "content", true);
		case "label":
			if (!isString(entry.targetId)) return '"targetId" must be a string';
			return entry.label === undefined || entry.label === null || isString(entry.label) ? undefined : '"label" must be a string';
		case "session_info":
			return entry.name === undefined || entry.name === null || isString(entry.name) ? undefined : '"name" must be a string';
		default:
			return undefined;
	}
}
