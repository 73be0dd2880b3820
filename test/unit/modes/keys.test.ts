// Raw terminal bytes → key presses and the key ids shortcuts are matched by.
import { expect, test } from "bun:test";
import { decodeKeys, keyId, normalizeKeyId } from "../../../src/modes/interactive/keys.ts";

const ids = (data: string) => decodeKeys(data).map((k) => keyId(k) || `text:${k.text}`);

test("printable runs become one text key; control characters are ctrl+letter", () => {
	expect(ids("hello")).toEqual(["text:hello"]);
	expect(ids("ab\x03cd")).toEqual(["text:ab", "ctrl+c", "text:cd"]);
	expect(ids("\x04\x0f\x01\x05\x15\x0b\x17")).toEqual(["ctrl+d", "ctrl+o", "ctrl+a", "ctrl+e", "ctrl+u", "ctrl+k", "ctrl+w"]);
	expect(ids("\r\n\t\x7f\b")).toEqual(["enter", "ctrl+j", "tab", "backspace", "backspace"]);
	expect(ids("é😀")).toEqual(["text:é😀"]);
});

test("escape alone, alt+key, alt+enter, arrows with modifiers, tilde keys, shift+tab, kitty CSI u", () => {
	expect(ids("\x1b")).toEqual(["escape"]);
	expect(ids("\x1b\r")).toEqual(["alt+enter"]);
	expect(ids("\x1bb\x1bF\x1b\x7f")).toEqual(["alt+b", "shift+alt+f", "alt+backspace"]);
	expect(ids("\x1b[A\x1b[B\x1b[C\x1b[D\x1bOH\x1b[F")).toEqual(["up", "down", "right", "left", "home", "end"]);
	expect(ids("\x1b[1;5C\x1b[1;3D\x1b[1;2A")).toEqual(["ctrl+right", "alt+left", "shift+up"]);
	expect(ids("\x1b[3~\x1b[5~\x1b[6~\x1b[1~\x1b[4~\x1b[15~")).toEqual(["delete", "pageUp", "pageDown", "home", "end", "f5"]);
	expect(ids("\x1b[Z")).toEqual(["shift+tab"]);
	expect(ids("\x1b[13;2u\x1b[13;3u\x1b[112;5u")).toEqual(["shift+enter", "alt+enter", "ctrl+p"]);
});

test("bracketed paste is one key with its text, newlines normalised", () => {
	const [paste] = decodeKeys("\x1b[200~line one\r\nline two\x1b[201~");
	expect(paste).toMatchObject({ name: "paste", text: "line one\nline two" });
	expect(ids("x\x1b[200~p\x1b[201~y")).toEqual(["x", "paste", "y"]);
});

test("key ids an extension writes are normalised to the decoder's form", () => {
	expect(normalizeKeyId("Ctrl+Alt+P")).toBe("ctrl+alt+p");
	expect(normalizeKeyId("alt+ctrl+p")).toBe("ctrl+alt+p");
	expect(normalizeKeyId("esc")).toBe("escape");
	expect(normalizeKeyId("shift+PageUp")).toBe("shift+pageUp");
	expect(normalizeKeyId("ctrl+shift+x")).toBe("ctrl+shift+x");
});
