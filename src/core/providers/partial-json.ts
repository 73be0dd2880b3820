// Best-effort parsing of tool-call arguments while they are still streaming, so a partial message
// can show `{ path: "src/a.ts" }` before the closing brace arrives.

/** Parse possibly-truncated JSON object text; `{}` when nothing usable is there yet. */
export function parseStreamingJson(text: string): Record<string, unknown> {
	if (!text.trim()) return {};
	let end = text.length;
	while (end > 0) {
		const candidate = closeJson(text.slice(0, end));
		try {
			const value: unknown = JSON.parse(candidate);
			return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
		} catch {
			// Cut back to the previous member boundary and try again.
		}
		const cut = lastMemberBoundary(text, end);
		end = cut < end ? cut : end - 1;
	}
	return {};
}

interface ScanState {
	/** Closers for the containers still open, innermost last. */
	closers: string[];
	inString: boolean;
	/** The text ends in the middle of an escape. */
	escaped: boolean;
	/** Just before the last comma, or just after the last opening bracket, outside strings. */
	boundary: number;
}

function scan(text: string): ScanState {
	const state: ScanState = { closers: [], inString: false, escaped: false, boundary: 0 };
	for (let i = 0; i < text.length; i++) {
		const ch = text[i];
		if (state.inString) {
			if (state.escaped) state.escaped = false;
			else if (ch === "\\") state.escaped = true;
			else if (ch === '"') state.inString = false;
			continue;
		}
		if (ch === '"') state.inString = true;
		else if (ch === ",") state.boundary = i;
		else if (ch === "{" || ch === "[") {
			state.closers.push(ch === "{" ? "}" : "]");
			state.boundary = i + 1;
		} else if (ch === "}" || ch === "]") state.closers.pop();
	}
	return state;
}

/** Close an open string and every open container, dropping a dangling comma. */
function closeJson(text: string): string {
	const state = scan(text);
	let out = text;
	if (state.inString) {
		// A cut escape (`\` or `\u12`) cannot be closed; drop it.
		out = out.replace(/\\u[0-9a-fA-F]{0,3}$/, "");
		if (state.escaped) out = out.slice(0, -1);
		out += '"';
	}
	out = out.trimEnd();
	if (out.endsWith(",")) out = out.slice(0, -1);
	return out + state.closers.reverse().join("");
}

/** Where to cut `text[0, end)` back to the previous member. */
function lastMemberBoundary(text: string, end: number): number {
	return scan(text.slice(0, end)).boundary;
}
