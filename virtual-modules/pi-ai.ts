// `@mariozechner/pi-ai` / `@earendil-works/pi-ai` for extensions written for pi: the schema helpers
// and the AI types (types vanish at run time). `complete`/`stream` need the model registry.
import { Type, type TSchema } from "typebox";

export { Type };

/** A string enum as plain JSON Schema (`{ type: "string", enum }`), which every provider accepts. */
export function StringEnum<T extends readonly string[]>(values: T, options: { description?: string; default?: T[number] } = {}): TSchema {
	return Type.Unsafe<T[number]>({ type: "string", enum: [...values], ...options });
}

function notWired(name: string): never {
	throw new Error(`${name}() from pi-ai is not available in this build yet: use ctx.modelRegistry and the session instead.`);
}

export function complete(..._args: unknown[]): never {
	return notWired("complete");
}

export function stream(..._args: unknown[]): never {
	return notWired("stream");
}
