// `@mariozechner/pi-ai` / `@earendil-works/pi-ai` for extensions written for pi: the schema helpers
// and the AI types (types vanish at run time), and `complete`/`stream`.
import { Type, type TSchema } from "typebox";

export { Type };

/** A string enum as plain JSON Schema (`{ type: "string", enum }`), which every provider accepts. */
export function StringEnum<T extends readonly string[]>(values: T, options: { description?: string; default?: T[number] } = {}): TSchema {
	return Type.Unsafe<T[number]>({ type: "string", enum: [...values], ...options });
}

// complete/stream: the same wire implementations the agent uses; the caller passes the key
// (ctx.modelRegistry.getApiKeyAndHeaders(model)), as with pi-ai.
export { complete, stream } from "../src/core/providers/stream.ts";
export { createAssistantMessageEventStream } from "../src/core/providers/event-stream.ts";
