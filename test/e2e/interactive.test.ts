// The interactive TUI in a real terminal (tmux), through the compiled binary: the seeds'
// walk-through word for word, the start-up list (compact, and expanded in place with ctrl+o),
// completion markers, shortcuts, /reload, `!cmd`, quietStartup, the way out and the fallback.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { TempWorld } from "../support/agent.ts";
import { hasTmux, Terminal } from "../support/terminal.ts";

const HELLO = `import type { ExtensionAPI } from "@scope/coding-agent";

export default function helloExtension(pi: ExtensionAPI) {
	pi.registerCommand("hello", {
		description: "Say hello from a book extension",
		handler: async (_args, ctx) => {
			ctx.ui.notify("Hello from /tmp/hello.ts!", "info");
		},
	});
}
`;

/** tmux tests wait on the screen (each wait fails on its own after 15 s); bun's default is 5 s. */
const TIMEOUT = 30_000;

const COMMAND = (name: string, description: string) =>
	`export default function (pi) {\n\tpi.registerCommand("${name}", { description: "${description}", handler: async (_a, ctx) => ctx.ui.notify("${name} ran") });\n}\n`;

describe.skipIf(!hasTmux)("interactive mode", () => {
	test("the seeds' walk-through: [Extensions] list, ctrl+o, /hello completion and its notify line, no-model warning", async () => {
		await using world = new TempWorld();
		const hello = world.write("tmp/hello.ts", HELLO);
		// Wide, as in the seeds' capture (200 columns): no line of the list wraps.
		await using term = new Terminal(world, ["-ne", "-e", hello], { width: 200 });
		const start = await term.waitForAbove('Then "agent --list-models" shows the models you can use.');
		expect(start.above).toStartWith(
			[
				` agent v${pkg.version}`,
				" escape interrupt · ctrl+c/ctrl+d clear/exit · / commands · ! bash · ctrl+o more",
				"",
				"[Extensions]",
				"  hello.ts",
				"",
				" Warning: No model is configured. Set one up in any of these ways:",
				"   - an API key in the environment: ANTHROPIC_API_KEY, OPENAI_API_KEY, OPENROUTER_API_KEY, GROQ_API_KEY or DEEPSEEK_API_KEY",
			].join("\n"),
		);
		// Step 3: ctrl+o expands the list in place, grouped by source (and says so, as pi 1.6 does).
		term.keys("C-o");
		await term.waitToPass("the expanded list", (p) => {
			expect(p.above).toContain(`[Extensions]\n  path\n    ${hello}\n`);
			expect(p.above).toEndWith(' Then "agent --list-models" shows the models you can use.\n\n Tool output: expanded');
		});
		// Step 4: /hello completes with its source marker; Enter runs it and its notify line shows
		// (taking the place of the status line just before it, as pi's back-to-back statuses do).
		term.type("/hello");
		await term.waitForEditor("/hello");
		await term.waitForBelow("→ hello       [t] Say hello from a book extension\n");
		term.keys("Enter");
		await term.waitForAbove(' Then "agent --list-models" shows the models you can use.\n\n Hello from /tmp/hello.ts!');
		term.keys("C-c", "C-c");
		// Nothing was said to a model, so there is no session to resume.
		expect(await term.waitFor("EXIT=")).not.toContain("To resume");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);

	test("project, user and -e extensions: compact and ctrl+o expanded lists, markers, issues, shortcuts", async () => {
		await using world = new TempWorld();
		world.write(
			"project/.agent/extensions/proj-ext.ts",
			`export default function (pi) {
	pi.registerCommand("projcmd", { description: "Project command", handler: async () => {} });
	pi.registerCommand("model", { description: "Shadowed", handler: async () => {} });
	pi.registerShortcut("ctrl+c", { handler: async () => {} });
	pi.registerShortcut("ctrl+t", { description: "Say it", handler: async (ctx) => ctx.ui.notify("shortcut fired", "warning") });
}
`,
		);
		world.write("project/.agent/extensions/dirext/index.ts", "export default () => {};\n");
		world.write("project/AGENTS.md", "Be brief.\n");
		world.write("home/.agent/extensions/user-ext.ts", COMMAND("usercmd", "User command"));
		const cli = world.write("cli-ext.ts", COMMAND("clicmd", "CLI command"));
		const proj = join(world.cwd, ".agent/extensions/proj-ext.ts");
		await using term = new Terminal(world, ["-a", "-e", cli], { width: 200 });
		const start = await term.waitForAbove("Then \"agent --list-models\" shows the models you can use.");
		expect(start.above).toContain(
			[
				"[Context]",
				"  AGENTS.md",
				"",
				"[Extensions]",
				"  cli-ext.ts, dirext, proj-ext.ts, user-ext.ts",
				"",
				"[Extension issues]",
				`  project ${proj}`,
				"    Extension command '/model' conflicts with built-in interactive command. Skipping in autocomplete.",
				`  project ${proj}`,
				`    Extension shortcut 'ctrl+c' from ${proj} conflicts with built-in shortcut. Skipping.`,
				"",
				" Warning: No model is configured.",
			].join("\n"),
		);
		term.keys("C-o");
		await term.waitToPass("the expanded list", (p) =>
			expect(p.above).toContain(
				[
					"[Extensions]",
					"  project",
					`    ${world.cwd}/.agent/extensions/dirext`,
					`    ${proj}`,
					"  user",
					"    ~/.agent/extensions/user-ext.ts",
					"  path",
					`    ${cli}`,
				].join("\n"),
			),
		);
		term.type("/cmd");
		await term.waitToPass("the /cmd menu", (p) => {
			expect(p.editor).toBe("/cmd");
			expect(p.below).toContain("projcmd     [p] Project command");
			expect(p.below).toContain("usercmd     [u] User command");
			expect(p.below).toContain("clicmd      [t] CLI command");
		});
		term.keys("C-u", "C-t");
		await term.waitForAbove(" Warning: shortcut fired");
		term.type("/model");
		await term.waitForBelow("→ model       Select a model (optionally filtered: /model <search>)");
		term.keys("C-c", "C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);

	test("ctx.ui.editor opens in place (ctrl+g hands it to $VISUAL); quietStartup hides the list unless --verbose", async () => {
		await using world = new TempWorld();
		world.write("home/.agent/settings.json", JSON.stringify({ quietStartup: true }));
		const visual = world.write("bin/edit.sh", '#!/bin/sh\nprintf "%s and more" "$(cat "$1")" > "$1"\n');
		Bun.spawnSync(["chmod", "+x", visual]);
		const ext = world.write(
			"write.ts",
			`export default function (pi) {
	pi.registerCommand("write", {
		description: "Edit a text",
		handler: async (_a, ctx) => ctx.ui.notify("got: " + (await ctx.ui.editor("Write something", "draft"))),
	});
}
`,
		);
		{
			await using term = new Terminal(world, ["-ne", "-e", ext], { env: { VISUAL: visual } });
			const start = await term.waitForAbove("shows the models you can use.");
			expect(start.above).not.toContain("[Extensions]");
			expect(start.above).toStartWith(" Warning: No model is configured.");
			term.submit("/write");
			await term.waitUntil("the editor dialog", (_p, screen) => screen.includes(" Write something\n") && /\ndraft\n/.test(screen));
			term.keys("C-g");
			await term.waitUntil("the edited text", (_p, screen) => /\ndraft and more\n/.test(screen));
			term.keys("Enter");
			await term.waitForAbove(" got: draft and more");
			term.keys("C-d");
			await term.waitFor("EXIT=0");
		}
		await using verbose = new Terminal(world, ["-ne", "-e", ext, "--verbose"]);
		expect((await verbose.waitForAbove("shows the models you can use.")).above).toContain(`[Extensions]\n  path\n    ${ext}\n`);
	}, TIMEOUT);

	test("/reload picks up an edited extension", async () => {
		await using world = new TempWorld();
		const ext = world.write("greet.ts", COMMAND("greet", "Greets v1").replace('"greet ran"', '"hello v1"'));
		await using term = new Terminal(world, ["-ne", "-e", ext]);
		await term.waitForAbove("shows the models you can use.");
		term.submit("/greet");
		await term.waitForAbove(" hello v1");
		world.write(ext, COMMAND("greet", "Greets v2").replace('"greet ran"', '"hello v2"'));
		term.submit("/reload");
		await term.waitForAbove(" Reloaded 1 extension.\n\n[Extensions]\n  greet.ts");
		term.type("/gre");
		await term.waitForBelow("→ greet       [t] Greets v2");
		term.keys("Tab");
		await term.waitForEditor("/greet");
		term.keys("Enter");
		await term.waitForAbove(" hello v2");
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);

	test("!cmd runs bash and shows its output; user_bash can replace the result; a throwing hook aborts", async () => {
		await using world = new TempWorld();
		const ext = world.write(
			"bash-hook.ts",
			`export default function (pi) {
	pi.on("user_bash", (e) => {
		if (e.command === "fake") return { result: { output: "from the hook\\n", exitCode: 0, cancelled: false, truncated: false } };
		if (e.command === "forbidden") throw new Error("not allowed");
	});
}
`,
		);
		await using term = new Terminal(world, ["-ne", "-e", ext]);
		await term.waitForAbove("shows the models you can use.");
		term.submit("!echo hi");
		await term.waitForAbove(" $ echo hi\n   hi");
		term.submit("!!fake");
		await term.waitForAbove(" $ fake  (kept out of the model's context)\n   from the hook");
		term.submit("!sh -c 'exit 3'");
		await term.waitForAbove(" $ sh -c 'exit 3'\n   exit code 3");
		term.submit("!forbidden");
		const after = await term.waitForAbove(" Error: not allowed");
		expect(after.above).toContain(` Extension "${ext}" error: not allowed`);
		// Each run is drawn once (its message joining the session does not draw it again).
		expect(after.above.split("$ echo hi").length).toBe(2);
		expect(after.above.split("$ fake").length).toBe(2);
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);

	test("closing the terminal ends the process; extensions get session_shutdown", async () => {
		await using world = new TempWorld();
		const log = join(world.root, "lifecycle.log");
		const ext = world.write(
			"life.ts",
			`import { appendFileSync } from "node:fs";
export default function (pi) {
	pi.on("session_start", () => appendFileSync(${JSON.stringify(log)}, "pid " + process.pid + "\\n"));
	pi.on("session_shutdown", (e) => appendFileSync(${JSON.stringify(log)}, "shutdown " + e.reason + "\\n"));
}
`,
		);
		const term = new Terminal(world, ["-ne", "-e", ext]);
		await term.waitForAbove("shows the models you can use.");
		// session_start is told the pid; the screen being up does not say the handler has run.
		await term.waitUntil("session_start in the log", () => existsSync(log) && /pid \d+\n/.test(readFileSync(log, "utf8")));
		const pid = Number(/pid (\d+)/.exec(readFileSync(log, "utf8"))![1]);
		term.close();
		const alive = () => {
			try {
				process.kill(pid, 0);
				return true;
			} catch {
				return false;
			}
		};
		const deadline = Date.now() + 15_000;
		while (alive() && Date.now() < deadline) await Bun.sleep(50);
		expect(alive()).toBe(false);
		expect(await Bun.file(log).text()).toBe(`pid ${pid}\nshutdown quit\n`);
	}, TIMEOUT);
});
