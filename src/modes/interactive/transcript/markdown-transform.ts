// registerMarkdownTransformer: rewrite Markdown before it is drawn (never what the model sees), per
// message kind (pi 1.6's messageTypes; default user, assistant and thinking). Reads either shape of
// the extension record (a list of functions, or pi's registration with its message types).
import type { Extension } from "../../../core/extensions/types.ts";

export type MarkdownMessageType = "user" | "assistant" | "assistant-thinking" | "custom" | "summary";

const DEFAULT_TYPES: readonly MarkdownMessageType[] = ["user", "assistant", "assistant-thinking"];

type Transformer = (markdown: string, context: Record<string, unknown>) => string;

interface Registration {
	transformer: Transformer;
	messageTypes: ReadonlySet<string>;
}

function registrations(ext: Extension): Registration[] {
	const record = ext as unknown as { markdownTransformers?: unknown[]; markdownTransformer?: unknown };
	const raw = [...(record.markdownTransformers ?? []), ...(record.markdownTransformer ? [record.markdownTransformer] : [])];
	return raw.flatMap((r): Registration[] => {
		if (typeof r === "function") return [{ transformer: r as Transformer, messageTypes: new Set(DEFAULT_TYPES) }];
		const reg = r as { transformer?: unknown; messageTypes?: Iterable<string> };
		if (typeof reg?.transformer !== "function") return [];
		return [{ transformer: reg.transformer as Transformer, messageTypes: new Set(reg.messageTypes ?? DEFAULT_TYPES) }];
	});
}

export interface MarkdownTransformContext {
	messageType: MarkdownMessageType;
	isStreaming: boolean;
	availableWidth: number;
	messageId?: string;
	timestamp?: string;
}

/**
 * `markdown` through every extension's transformers for this kind of message, in load order. A
 * transformer that throws or returns something that is not a string is skipped.
 */
export function transformMarkdown(extensions: readonly Extension[], markdown: string, context: MarkdownTransformContext): string {
	let text = markdown;
	for (const ext of extensions) {
		for (const { transformer, messageTypes } of registrations(ext)) {
			if (!messageTypes.has(context.messageType)) continue;
			try {
				// `source` is the older name of the message kind.
				const next = transformer(text, { ...context, source: context.messageType });
				if (typeof next === "string") text = next;
			} catch {
				// A broken transformer leaves the text as it was.
			}
		}
	}
	return text;
}

export function hasMarkdownTransformers(extensions: readonly Extension[]): boolean {
	return extensions.some((ext) => registrations(ext).length > 0);
}
