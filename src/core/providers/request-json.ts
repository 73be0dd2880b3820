// A request body as JSON.stringify writes it, byte for byte, with the JSON of the conversation
// entries and tool definitions kept from one request to the next: they do not change once sent, so
// a turn serialises what is new instead of the whole conversation again.

/** The JSON of objects that are final once sent (a conversation entry, a tool definition). */
const kept = new WeakMap<object, string>();

function keptJson(value: object): string {
	let json = kept.get(value);
	if (json === undefined) kept.set(value, (json = JSON.stringify(value)));
	return json;
}

/**
 * `JSON.stringify(body)`, where the arrays under `lists` hold objects nobody changes once they were
 * sent (entries the provider keeps per message, tool definitions kept per tool list). Not for a
 * body an `onPayload` hook had: its objects are the hook's to change.
 */
export function stringifyRequest(body: Record<string, unknown>, lists: readonly string[]): string {
	// One join at the end: the body comes out as one flat string, not a rope fetch must flatten.
	const parts: string[] = [];
	for (const key of Object.keys(body)) {
		const value = body[key];
		if (Array.isArray(value) && lists.includes(key)) {
			parts.push(parts.length === 0 ? "{" : ",", JSON.stringify(key), ":[");
			for (let i = 0; i < value.length; i++) {
				const item: unknown = value[i];
				if (i > 0) parts.push(",");
				// JSON.stringify writes null for an element it cannot write (undefined, a function).
				parts.push(item !== null && typeof item === "object" ? keptJson(item) : (JSON.stringify(item) ?? "null"));
			}
			parts.push("]");
			continue;
		}
		const json = JSON.stringify(value);
		// As JSON.stringify does, a property it cannot write (undefined, a function) is left out.
		if (json === undefined) continue;
		parts.push(parts.length === 0 ? "{" : ",", JSON.stringify(key), ":", json);
	}
	return parts.length === 0 ? "{}" : `${parts.join("")}}`;
}
