// The one table of module specifiers served to extensions from inside the binary (SPEC §2).
// Imported statically here so Bun bundles every entry; this file itself is imported lazily,
// only when an extension is actually loaded from disk.
import * as typebox from "typebox";
import * as typeboxCompile from "typebox/compile";
import * as typeboxValue from "typebox/value";
import * as codingAgent from "../src/index.ts";
import * as piAi from "./pi-ai.ts";
import * as piTui from "./pi-tui.ts";

/** Specifier → module namespace. Aliases share the same object, so singletons stay single. */
export function virtualModules(): Record<string, object> {
	const agentCore = {};
	return {
		"@scope/coding-agent": codingAgent,
		typebox,
		"typebox/compile": typeboxCompile,
		"typebox/value": typeboxValue,
		"@sinclair/typebox": typebox,
		"@sinclair/typebox/compile": typeboxCompile,
		"@sinclair/typebox/value": typeboxValue,
		// pi compatibility: extensions written for pi load unchanged.
		"@mariozechner/pi-coding-agent": codingAgent,
		"@earendil-works/pi-coding-agent": codingAgent,
		"@mariozechner/pi-ai": piAi,
		"@earendil-works/pi-ai": piAi,
		"@mariozechner/pi-agent-core": agentCore,
		"@earendil-works/pi-agent-core": agentCore,
		"@mariozechner/pi-tui": piTui,
		"@earendil-works/pi-tui": piTui,
	};
}
