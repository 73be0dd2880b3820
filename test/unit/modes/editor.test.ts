// The input line: insertion, emacs keys, words, multi-line movement and history.
import { expect, test } from "bun:test";
import { LineEditor } from "../../../src/modes/interactive/editor.ts";
import { decodeKeys } from "../../../src/modes/interactive/keys.ts";

function type(editor: LineEditor, data: string): string[] {
	return decodeKeys(data).map((k) => editor.handle(k));
}

test("typing, moving and deleting", () => {
	const e = new LineEditor();
	type(e, "hello world");
	expect([e.text, e.cursor]).toEqual(["hello world", 11]);
	type(e, "\x01"); // ctrl+a
	expect(e.cursor).toBe(0);
	type(e, "\x1bf"); // alt+f: after "hello"
	expect(e.cursor).toBe(5);
	type(e, "\x0b"); // ctrl+k
	expect(e.text).toBe("hello");
	type(e, "\x7f\x7f"); // backspace twice
	expect(e.text).toBe("hel");
	type(e, "\x1b[D\x1b[D\x04"); // left, left, ctrl+d deletes forward
	expect([e.text, e.cursor]).toEqual(["hl", 1]);
	type(e, "\x05 there\x17"); // ctrl+e, text, ctrl+w deletes the word back
	expect(e.text).toBe("hl ");
	type(e, "\x15"); // ctrl+u
	expect([e.text, e.cursor]).toEqual(["", 0]);
});

test("ctrl+d on an empty line and enter are left to the caller", () => {
	const e = new LineEditor();
	expect(type(e, "\x04\r")).toEqual(["unhandled", "unhandled"]);
});

test("ctrl+j and shift+enter insert a newline; up and down move between lines before history", () => {
	const e = new LineEditor();
	type(e, "first\nsecond");
	expect(e.text).toBe("first\nsecond");
	type(e, "\x1b[A"); // up: to line one, same column clamped
	expect(e.cursor).toBe(5);
	type(e, "\x1b[B"); // down: back to line two at that column
	expect(e.cursor).toBe(11);
	type(e, "\x05\x1b[13;2ux"); // ctrl+e, shift+enter, x
	expect(e.text).toBe("first\nsecond\nx");
});

test("history: up recalls earlier inputs, down returns to the draft", () => {
	const e = new LineEditor();
	type(e, "one");
	e.take();
	type(e, "two");
	expect(e.take()).toBe("two");
	type(e, "dra");
	type(e, "\x1b[A");
	expect(e.text).toBe("two");
	type(e, "\x1b[A\x1b[A");
	expect(e.text).toBe("one");
	type(e, "\x1b[B\x1b[B");
	expect(e.text).toBe("dra");
});
