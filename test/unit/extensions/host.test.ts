// The host's paths that print and json mode cannot reach: a mode with a UI (ui_prompt_start/end
// around dialogs, timeout and signal) and `!cmd` (user_bash, bash_execution_update). In-process,
// through createAgentSession with an inline extension and no model calls.
import { describe, expect, test } from "bun:test";
import { createNoopUI } from "../../../src/core/extensions/ui-noop.ts";
import { loadExtensions, loadInlineExtensions } from "../../../src/core/extensions/loader.ts";
import type { ExtensionAPI, ExtensionUIContext } from "../../../src/core/extensions/types.ts";
import type { ExtensionErrorReport } from "../../../src/core/extensions/runner.ts";
import { ModelRegistry } from "../../../src/core/providers/registry.ts";
import { createAgentSession } from "../../../src/core/sdk.ts";
import { TempWorld } from "../../support/agent.ts";

async function hostWith(world: TempWorld, factory: (pi: ExtensionAPI) => void, ui?: ExtensionUIContext) {
	const loaded = await loadExtensions([], { cwd: world.cwd });
	await loadInlineExtensions([factory], loaded);
	const errors: ExtensionErrorReport[] = [];
	const created = await createAgentSession({
		cwd: world.cwd,
		registry: ModelRegistry.create({ agentDir: world.agentDir, env: {} }),
		allowNoModel: true,
		noContextFiles: true,
		session: { kind: "memory" },
		extensions: { loaded, entries: [], projectTrusted: false },
		mode: "tui",
		ui,
		hasUI: ui !== undefined,
		onExtensionError: (r) => errors.push(r),
	});
	return { ...created, errors };
}

describe("dialogs with a UI", () => {
	test("ui_prompt_start / ui_prompt_end around each dialog; timeout and signal resolve to the default", async () => {
		await using world = new TempWorld();
		const log: unknown[] = [];
		const ui: ExtensionUIContext = { ...createNoopUI(), select: async () => "b", confirm: () => new Promise(() => {}), input: async () => undefined };
		const { host, errors } = await hostWith(
			world,
			(pi) => {
				pi.on("ui_prompt_start", (e) => void log.push(["start", e.method, e.title]));
				pi.on("ui_prompt_end", (e) => void log.push(["end", e.method, e.cancelled]));
				pi.registerCommand("ask", {
					handler: async (_a, ctx) => {
						log.push(await ctx.ui.select("Pick", ["a", "b"]));
						log.push(await ctx.ui.confirm("Sure?", "never answered", { timeout: 20 }));
						log.push(await ctx.ui.confirm("Again?", "aborted", { signal: AbortSignal.abort() }));
						log.push(await ctx.ui.input("Name"));
					},
				});
			},
			ui,
		);
		await host.submit("/ask");
		expect(errors).toEqual([]);
		expect(log).toEqual([
			["start", "select", "Pick"],
			["end", "select", false],
			"b",
			["start", "confirm", "Sure?"],
			["end", "confirm", true],
			false,
			["start", "confirm", "Again?"],
			["end", "confirm", true],
			false,
			["start", "input", "Name"],
			["end", "input", true],
			undefined,
		]);
	});
});

describe("user bash", () => {
	test("runs locally with bash_execution_update, and becomes a bashExecution message", async () => {
		await using world = new TempWorld();
		const log: unknown[] = [];
		const { host, session } = await hostWith(world, (pi) => {
			pi.on("user_bash", (e) => void log.push(["user_bash", e.command, e.excludeFromContext, e.cwd === world.cwd]));
			pi.on("bash_execution_update", (e) => void log.push(["update", e.command, e.output]));
		});
		// Updates are coalesced on a 50 ms timer: the pause lets the first line out as one.
		const command = "echo first; sleep 0.5; echo second";
		const message = await host.runUserBash(command, { excludeFromContext: true });
		expect(message).toMatchObject({ role: "bashExecution", command, output: "first\nsecond\n", exitCode: 0, cancelled: false, excludeFromContext: true });
		expect(log.slice(0, 2)).toEqual([
			["user_bash", command, true, true],
			["update", command, "first\n"],
		]);
		expect(session.messages.at(-1)).toBe(message);
	});

	test("a handler's operations or result replace the run; a throw aborts it", async () => {
		await using world = new TempWorld();
		const ran: string[] = [];
		const { host, errors } = await hostWith(world, (pi) => {
			pi.on("user_bash", (e) => {
				if (e.command === "remote") return { operations: { exec: async (command, _cwd, o) => (ran.push(command), o.onData(Buffer.from("from remote\n")), { exitCode: 7 }) } };
				if (e.command === "canned") return { result: { output: "canned\n", exitCode: 0, cancelled: false, truncated: false } };
				if (e.command === "forbidden") throw new Error("not allowed here");
			});
		});
		expect(await host.runUserBash("remote")).toMatchObject({ output: "from remote\n", exitCode: 7 });
		expect(ran).toEqual(["remote"]);
		expect(await host.runUserBash("canned")).toMatchObject({ output: "canned\n", exitCode: 0 });
		await expect(host.runUserBash("forbidden")).rejects.toThrow("not allowed here");
		expect(errors.map((e) => [e.extensionPath, e.event, e.error])).toEqual([["<inline:1>", "user_bash", "not allowed here"]]);
	});
});
