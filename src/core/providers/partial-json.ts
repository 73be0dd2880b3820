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

/** Close an open string and every open container, dropping a dangling comma. */
function closeJson(text: string): string {
	const stack: string[] = [];
	let inString = false;
	let escaped = false;
	for (const ch of text) {
		if (inString) {
			if (escaped) escaped = false;
			else if (ch === "\\") escaped = true;
			else if (ch === '"') inString = false;
			continue;
		}
		if (ch === '"') inString = true;
		else if (ch === "{") stack.push("}");
		else if (ch === "[") stack.push("]");
		else if (ch === "}" || ch === "]") stack.pop();
	}
	let out = text;
	if (inString) {
		// A cut escape (`\` or `\u12`) cannot be closed; drop it.
		out = out.replace(/\\u[0-9a-fA-F]{0,3}$/, "");
		if (escaped) out = out.slice(0, -1);
		out += '"';
	}
	out = out.trimEnd();
	if (out.endsWith(",")) out = out.slice(0, -1);
	return out + stack.reverse().join("");
}

/** The index just before the last comma, or just after the last opening bracket, outside strings. */
function lastMemberBoundary(text: string, end: number): number {
	let inString = false;
	let escaped = false;
	let boundary = 0;
	for (let i = 0; i < end; i++) {
		const ch = text[i];
		if (inString) {
			if (escaped) escaped = false;
			else if (ch === "\\") escaped = true;
			else if (ch === '"') inString = false;
			continue;
		}
		if (ch === '"') inString = true;
		else if (ch === ",") boundary = i;
		else if (ch === "{" || ch === "[") boundary = i + 1;
	}
	return boundary;
}
