// The transcript seals entries that are done changing on their own into runs drawn from one cached
// array, and draws them again exactly when something can have changed them: the entry's own
// invalidate() (a late tool result, a renderer's invalidate(), a status line replaced), a new
// width, the whole transcript invalidated (theme, ctrl+t, the thinking label), ctrl+o. Entries
// still changing (a streaming answer, an extension's component) are drawn every frame.
import { describe, expect, test } from "bun:test";
import type { Component } from "@earendil-works/pi-tui";
import { ExtensionRenderers } from "../../../src/core/extensions/renderers.ts";
import type { Extension } from "../../../src/core/extensions/types.ts";
import { AssistantMessageView } from "../../../src/modes/interactive/transcript/assistant-message.ts";
import { CustomMessageView } from "../../../src/modes/interactive/transcript/custom-message.ts";
import { NoticeView } from "../../../src/modes/interactive/transcript/notice.ts";
import { ToolCallView } from "../../../src/modes/interactive/transcript/tool-call.ts";
import { Transcript, type Settling } from "../../../src/modes/interactive/transcript/transcript.ts";
import type { ViewContext } from "../../../src/modes/interactive/transcript/view-context.ts";

/** An entry that counts its renders; its lines change with `set` (which invalidates) or `look` (which does not). */
class Counted implements Component, Settling {
	renders = 0;
	onChange: (() => void) | undefined;
	private cache: { width: number; lines: string[] } | undefined;
	expanded = false;
	constructor(
		private text: string,
		public done = true,
		public look = "",
	) {}
	settled(): boolean {
		return this.done;
	}
	set(text: string): void {
		this.text = text;
		this.invalidate();
	}
	setExpanded(expanded: boolean): void {
		this.expanded = expanded;
		this.invalidate();
	}
	render(width: number): readonly string[] {
		this.renders++;
		if (this.cache?.width !== width) this.cache = { width, lines: ["", `${this.look}${this.text}${this.expanded ? " (all)" : ""}`.slice(0, width)] };
		return this.cache.lines;
	}
	invalidate(): void {
		this.cache = undefined;
		this.onChange?.();
	}
}

const draw = (t: Transcript, width = 40) => t.render(width).filter((line) => line !== "");

function transcriptOf(...entries: Counted[]): Transcript {
	const t = new Transcript();
	for (const e of entries) t.addChild(e);
	return t;
}

describe("Transcript", () => {
	test("a settled entry is sealed after one frame and not rendered again while nothing changes", () => {
		const a = new Counted("a");
		const b = new Counted("b");
		const t = transcriptOf(a, b);
		expect(draw(t)).toEqual(["a", "b"]);
		t.render(40); // the frame that joins them into a run
		const before = [a.renders, b.renders];
		const lines = t.render(40);
		for (let i = 0; i < 10; i++) expect(t.render(40)).toBe(lines);
		expect([a.renders, b.renders]).toEqual(before);
		expect(t.renderParts(40)).toHaveLength(1);
	});

	test("an entry still changing is rendered every frame, and what it shows changes with it", () => {
		const done = new Counted("done");
		const live = new Counted("stream", false);
		const t = transcriptOf(done, live);
		t.render(40);
		t.render(40);
		const renders = live.renders;
		live.set("stream more");
		expect(draw(t)).toEqual(["done", "stream more"]);
		expect(live.renders).toBe(renders + 1);
		// Once it settles it joins the run.
		live.done = true;
		t.render(40);
		t.render(40);
		expect(t.renderParts(40)).toHaveLength(1);
	});

	test("a sealed entry that changes (its own invalidate) is shown changed on the next frame", () => {
		const old = new Counted("tool call, running");
		const later = new Counted("a later answer");
		const t = transcriptOf(old, later);
		t.render(40);
		t.render(40);
		old.set("tool call, done");
		expect(draw(t)).toEqual(["tool call, done", "a later answer"]);
		// and it is sealed again afterwards
		t.render(40);
		const renders = old.renders;
		t.render(40);
		expect(old.renders).toBe(renders);
	});

	test("a new width draws every entry at that width", () => {
		const t = transcriptOf(new Counted("0123456789"), new Counted("abcdefghij"));
		t.render(40);
		t.render(40);
		expect(draw(t, 4)).toEqual(["0123", "abcd"]);
		expect(draw(t, 40)).toEqual(["0123456789", "abcdefghij"]);
	});

	test("invalidating the transcript (theme, ctrl+t, thinking label, Markdown loaded) draws every entry again", () => {
		const a = new Counted("a");
		const b = new Counted("b");
		const t = transcriptOf(a, b);
		t.render(40);
		t.render(40);
		// What a theme change does: the look changes underneath, then everything is invalidated.
		a.look = b.look = "*";
		expect(draw(t)).toEqual(["a", "b"]);
		t.invalidate();
		expect(draw(t)).toEqual(["*a", "*b"]);
	});

	test("ctrl+o expands the sealed entries too", () => {
		const t = transcriptOf(new Counted("a"), new Counted("b"));
		t.render(40);
		t.render(40);
		t.setExpanded(true);
		expect(draw(t)).toEqual(["a (all)", "b (all)"]);
		t.setExpanded(false);
		expect(draw(t)).toEqual(["a", "b"]);
	});

	test("with nothing above it, its first blank line goes, sealed or not", () => {
		const t = transcriptOf(new Counted("a"), new Counted("b"));
		let atTop = true;
		t.atTop = () => atTop;
		expect(t.render(40)).toEqual(["a", "", "b"]);
		t.render(40);
		expect(t.render(40)).toEqual(["a", "", "b"]);
		atTop = false;
		expect(t.render(40)).toEqual(["", "a", "", "b"]);
		const live = new Transcript();
		live.atTop = () => true;
		live.addChild(new Counted("streaming", false));
		expect(live.render(40)).toEqual(["streaming"]);
	});

	test("entries added, removed and cleared show up; an earlier run keeps its lines when one is added", () => {
		const t = new Transcript();
		const entries = Array.from({ length: 600 }, (_, i) => new Counted(`entry ${i}`));
		for (const e of entries) t.addChild(e);
		t.render(40);
		t.render(40);
		const first = t.renderParts(40)[0];
		expect(t.renderParts(40).length).toBeGreaterThan(1);
		t.addChild(new Counted("new"));
		t.render(40);
		t.render(40);
		expect(t.renderParts(40)[0]).toBe(first!);
		expect(draw(t).at(-1)).toBe("new");
		t.removeChild(entries[599]!);
		expect(draw(t).slice(-2)).toEqual(["entry 598", "new"]);
		t.clear();
		expect(t.render(40)).toEqual([]);
	});
});

/** What the views read from the app, with `extensions` registering renderers. */
function context(extensions: Partial<Extension>[] = []): ViewContext {
	const full = extensions.map((e) => ({ messageRenderers: new Map(), entryRenderers: new Map(), toolRenderers: [], ...e }) as unknown as Extension);
	return {
		tui: { requestRender() {}, terminal: { columns: 80 } } as never,
		cwd: "/tmp",
		expanded: false,
		hiddenThinkingLabel: undefined,
		extensions: () => full,
		renderers: new ExtensionRenderers(() => full),
		tool: () => undefined,
	};
}

describe("transcript entries", () => {
	test("an answer settles when it is complete, not while it streams", () => {
		const view = new AssistantMessageView(context(), false);
		const message = (text: string) => ({ role: "assistant", content: [{ type: "text", text }], stopReason: "stop" }) as never;
		view.update(message("part"), true);
		expect(view.settled()).toBe(false);
		view.update(message("part and the rest"), false);
		expect(view.settled()).toBe(true);
	});

	test("a tool call settles with its result; a renderer's invalidate() afterwards reaches the screen", () => {
		let label = "first";
		const ctx = context([
			{
				toolRenderers: [
					(name: string, next: () => unknown) =>
						name === "slow"
							? {
									renderCall: () => ({ render: () => ["slow call"], invalidate() {} }),
									renderResult: (_r: unknown, _o: unknown, _t: unknown, rc: { invalidate(): void }) => {
										invalidateFromRenderer = rc.invalidate;
										return { render: () => [`result: ${label}`], invalidate() {} };
									},
								}
							: next(),
				] as never,
			},
		]);
		let invalidateFromRenderer: (() => void) | undefined;
		const view = new ToolCallView(ctx, "slow", "call-1", {}, false);
		const t = new Transcript();
		t.addChild(view);
		t.addChild(new NoticeView("a later line"));
		view.markStarted();
		expect(view.settled()).toBe(false);
		view.setResult({ content: [{ type: "text", text: "ok" }] } as never, false, false);
		expect(view.settled()).toBe(true);
		expect(t.render(80).join("\n")).toContain("result: first");
		t.render(80);
		label = "second";
		expect(t.render(80).join("\n")).toContain("result: first");
		invalidateFromRenderer!();
		expect(t.render(80).join("\n")).toContain("result: second");
	});

	test("a message drawn by an extension's component is asked for its lines every frame, as in pi", () => {
		let text = "0%";
		const component = { render: () => [`progress ${text}`], invalidate() {} };
		const ctx = context([{ messageRenderers: new Map([["progress", () => component]]) } as never]);
		const view = new CustomMessageView(ctx, { role: "custom", customType: "progress", content: "", display: true, timestamp: 0 } as never, false);
		const t = new Transcript();
		t.addChild(view);
		t.addChild(new NoticeView("later"));
		expect(t.render(80).join("\n")).toContain("progress 0%");
		t.render(80);
		expect(view.settled()).toBe(false);
		// The component changes on its own (it would invalidate itself and ask for a frame).
		text = "100%";
		expect(t.render(80).join("\n")).toContain("progress 100%");
	});

	test("a message with no renderer is drawn once and settles", () => {
		const view = new CustomMessageView(context(), { role: "custom", customType: "note", content: "hello", display: true, timestamp: 0 } as never, false);
		view.render(80);
		expect(view.settled()).toBe(true);
	});
});
