// Raw terminal input → key presses. Our own small decoder (not readline's) so Escape arrives at
// once, Alt+Enter and bracketed paste are distinct, and key ids match registerShortcut's
// `modifier+key` form (reference §4.4).

export interface KeyPress {
	/** Key name: a letter or symbol, or enter, escape, tab, backspace, delete, up, … f12. "" for text. */
	name: string;
	ctrl: boolean;
	alt: boolean;
	shift: boolean;
	/** Text to insert (typed characters or a paste); set only for text. */
	text?: string;
	/** The raw bytes this key came from. */
	sequence: string;
}

const CSI_LETTERS: Record<string, string> = { A: "up", B: "down", C: "right", D: "left", H: "home", F: "end", P: "f1", Q: "f2", R: "f3", S: "f4", Z: "tab" };
const CSI_TILDE: Record<number, string> = {
	1: "home",
	2: "insert",
	3: "delete",
	4: "end",
	5: "pageUp",
	6: "pageDown",
	7: "home",
	8: "end",
	11: "f1",
	12: "f2",
	13: "f3",
	14: "f4",
	15: "f5",
	17: "f6",
	18: "f7",
	19: "f8",
	20: "f9",
	21: "f10",
	23: "f11",
	24: "f12",
};
const CSI_U: Record<number, string> = { 9: "tab", 13: "enter", 27: "escape", 32: "space", 127: "backspace" };

const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";

function key(name: string, sequence: string, mods: Partial<Pick<KeyPress, "ctrl" | "alt" | "shift">> = {}): KeyPress {
	return { name, ctrl: mods.ctrl ?? false, alt: mods.alt ?? false, shift: mods.shift ?? false, sequence };
}

/** xterm modifier parameter: 1 + (shift 1 | alt 2 | ctrl 4). */
function modifiers(param: number | undefined): Pick<KeyPress, "ctrl" | "alt" | "shift"> {
	const bits = (param ?? 1) - 1;
	return { shift: (bits & 1) !== 0, alt: (bits & 2) !== 0, ctrl: (bits & 4) !== 0 };
}

/** A single control or printable character (not ESC). */
function plainKey(ch: string): KeyPress {
	const code = ch.charCodeAt(0);
	if (ch === "\r") return key("enter", ch);
	if (ch === "\n") return key("j", ch, { ctrl: true });
	if (ch === "\t") return key("tab", ch);
	if (ch === "\x7f" || ch === "\b") return key("backspace", ch);
	if (code === 0) return key("space", ch, { ctrl: true });
	if (code < 27) return key(String.fromCharCode(code + 96), ch, { ctrl: true });
	if (code < 32) return key("\\]^_"[code - 28]!, ch, { ctrl: true });
	return { ...key("", ch), text: ch };
}

/** Parse one escape sequence at `s[i]` (an ESC); returns the key and how many characters it used. */
function escapeSequence(s: string, i: number): [KeyPress, number] {
	const next = s[i + 1];
	if (next === undefined) return [key("escape", "\x1b"), 1];
	if (next === "[" || next === "O") {
		const m = /^([0-9;]*)([A-Za-z~])/.exec(s.slice(i + 2));
		if (m) {
			const seq = s.slice(i, i + 2 + m[0].length);
			const params = m[1] ? m[1].split(";").map(Number) : [];
			const final = m[2]!;
			if (final === "~") {
				const name = CSI_TILDE[params[0] ?? 0];
				if (name) return [key(name, seq, modifiers(params[1])), seq.length];
			} else if (final === "u" && next === "[") {
				const code = params[0] ?? 0;
				const name = CSI_U[code] ?? String.fromCharCode(code).toLowerCase();
				return [key(name, seq, modifiers(params[1])), seq.length];
			} else if (CSI_LETTERS[final]) {
				const mods = modifiers(params[1]);
				if (final === "Z") mods.shift = true;
				return [key(CSI_LETTERS[final]!, seq, mods), seq.length];
			}
			return [key("unknown", seq), seq.length];
		}
		return [key("escape", "\x1b"), 1];
	}
	if (next === "\x1b") return [key("escape", "\x1b"), 1];
	// ESC + key = Alt + key.
	const inner = plainKey(next);
	const name = inner.text !== undefined ? next.toLowerCase() : inner.name;
	const shift = inner.text !== undefined && next !== next.toLowerCase();
	return [key(name, s.slice(i, i + 2), { ctrl: inner.ctrl, alt: true, shift }), 2];
}

/** Decode one chunk of raw input into key presses; runs of printable characters become one text key. */
export function decodeKeys(data: string): KeyPress[] {
	const out: KeyPress[] = [];
	let text = "";
	const flush = () => {
		if (text) out.push({ ...key("", text), text });
		text = "";
	};
	let i = 0;
	while (i < data.length) {
		if (data.startsWith(PASTE_START, i)) {
			flush();
			const end = data.indexOf(PASTE_END, i + PASTE_START.length);
			const body = data.slice(i + PASTE_START.length, end < 0 ? undefined : end);
			out.push({ ...key("paste", body), text: body.replace(/\r\n?/g, "\n") });
			i = end < 0 ? data.length : end + PASTE_END.length;
			continue;
		}
		const ch = data[i]!;
		if (ch === "\x1b") {
			flush();
			const [k, used] = escapeSequence(data, i);
			out.push(k);
			i += used;
			continue;
		}
		const k = plainKey(ch);
		if (k.text !== undefined) {
			// Keep surrogate pairs together.
			const cp = data.codePointAt(i)!;
			const chars = cp > 0xffff ? 2 : 1;
			text += data.slice(i, i + chars);
			i += chars;
			continue;
		}
		flush();
		out.push(k);
		i++;
	}
	flush();
	return out;
}

/** `ctrl+alt+p` style id of a key press (modifiers in a fixed order). */
export function keyId(k: KeyPress): string {
	const name = k.name || (k.text && k.text.length === 1 ? k.text.toLowerCase() : "");
	return [k.ctrl && "ctrl", k.shift && "shift", k.alt && "alt", name].filter(Boolean).join("+");
}

const ALIASES: Record<string, string> = { esc: "escape", return: "enter", pageup: "pageUp", pagedown: "pageDown", del: "delete" };

/** Normalise a KeyId an extension wrote (`Ctrl+Alt+P`, `alt+ctrl+p`, `esc`) to keyId's form. */
export function normalizeKeyId(id: string): string {
	const parts = id.split("+").map((p) => p.trim());
	const raw = parts.pop() ?? "";
	const lower = raw.toLowerCase();
	const name = ALIASES[lower] ?? lower;
	const mods = new Set(parts.map((p) => p.toLowerCase()));
	return [mods.has("ctrl") && "ctrl", mods.has("shift") && "shift", mods.has("alt") && "alt", mods.has("super") && "super", name].filter(Boolean).join("+");
}
