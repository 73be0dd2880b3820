// What extensions registered for drawing, handed to the modes through one small accessor: message
// and entry renderers by custom type, Markdown transformers, tool renderer resolvers. The modes
// draw; this only looks up, always over the live extension list (so /reload takes effect).
import type {
	EntryRenderer,
	Extension,
	MarkdownMessageType,
	MarkdownTransformContext,
	MessageRenderer,
	ToolRendererResolver,
	ToolRenderers,
} from "./types.ts";

export interface Owned<T> {
	value: T;
	/** The extension that registered it (path as given). */
	extensionPath: string;
}

export const DEFAULT_MARKDOWN_TYPES: readonly MarkdownMessageType[] = ["user", "assistant", "assistant-thinking"];

export class ExtensionRenderers {
	constructor(private readonly extensions: () => readonly Extension[]) {}

	/** The first extension (in load order) that registered a renderer for `customType`. */
	messageRenderer(customType: string): Owned<MessageRenderer<any>> | undefined {
		for (const ext of this.extensions()) {
			const value = ext.messageRenderers.get(customType);
			if (value) return { value, extensionPath: ext.path };
		}
		return undefined;
	}

	/** The renderer for `custom` entries (appendEntry) of `customType`. */
	entryRenderer(customType: string): Owned<EntryRenderer<any>> | undefined {
		for (const ext of this.extensions()) {
			const value = ext.entryRenderers.get(customType);
			if (value) return { value, extensionPath: ext.path };
		}
		return undefined;
	}

	/** Transformers for one Markdown surface, in load order. */
	markdownTransformers(messageType: MarkdownMessageType): Owned<(markdown: string, context: MarkdownTransformContext) => string>[] {
		const out: Owned<(markdown: string, context: MarkdownTransformContext) => string>[] = [];
		for (const ext of this.extensions()) {
			const t = ext.markdownTransformer;
			if (t && t.messageTypes.has(messageType)) out.push({ value: t.transformer, extensionPath: ext.path });
		}
		return out;
	}

	/**
	 * Apply every transformer of `context.messageType` in load order; one that throws or returns
	 * a non-string is skipped (reported through `onError`).
	 */
	transformMarkdown(markdown: string, context: MarkdownTransformContext, onError?: (extensionPath: string, error: unknown) => void): string {
		let text = markdown;
		for (const { value, extensionPath } of this.markdownTransformers(context.messageType)) {
			try {
				const next = value(text, context);
				if (typeof next === "string") text = next;
			} catch (error) {
				onError?.(extensionPath, error);
			}
		}
		return text;
	}

	/** Tool renderer resolvers in load order. */
	toolRendererResolvers(): Owned<ToolRendererResolver>[] {
		return this.extensions().flatMap((ext) => ext.toolRenderers.map((value) => ({ value, extensionPath: ext.path })));
	}

	/**
	 * The renderers for `toolName`: resolvers in load order, each able to defer with `next()`,
	 * and finally `fallback` (the registered tool's own renderCall/renderResult).
	 */
	toolRenderers(toolName: string, fallback?: () => ToolRenderers | undefined): ToolRenderers | undefined {
		const resolvers = this.toolRendererResolvers();
		const at = (i: number): ToolRenderers | undefined => {
			if (i >= resolvers.length) return fallback?.();
			try {
				return resolvers[i]!.value(toolName, () => at(i + 1));
			} catch {
				// A broken resolver is skipped.
				return at(i + 1);
			}
		};
		return at(0);
	}
}
