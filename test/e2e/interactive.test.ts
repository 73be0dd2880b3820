// The interactive REPL in a real terminal (tmux), through the compiled binary: the seeds'
// walk-through word for word, the start-up list, completion markers, shortcuts, extension UI
// (notify, select, confirm, status, widgets), /reload, and `!cmd`.
import { describe, expect, test } from "bun:test";
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
		await using term = new Terminal(world, ["-ne", "-e", hello]);
		const start = await term.waitFor("\n›");
		expect(start).toStartWith(
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
		term.type("/hello");
		await term.waitForEnd("› /hello\n→ hello       [t] Say hello from a book extension");
		term.keys("Enter");
		await term.waitForEnd(' Then "agent --list-models" shows the models you can use.\n\n Hello from /tmp/hello.ts!\n\n›');
		term.keys("C-o");
		await term.waitForEnd(`\n\n[Extensions]\n  path\n    ${hello}\n\n›`);
		term.keys("C-c", "C-c");
		await term.waitForEnd(" Hello from /tmp/hello.ts!\n\n[Extensions]\n  path\n    " + hello + "\nEXIT=0");
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
		world.write("home/.agent/extensions/user-ext.ts", COMMAND("usercmd", "User command"));
		const cli = world.write("cli-ext.ts", COMMAND("clicmd", "CLI command"));
		const proj = join(world.cwd, ".agent/extensions/proj-ext.ts");
		await using term = new Terminal(world, ["-a", "-e", cli]);
		const start = await term.waitFor("\n›");
		expect(start).toContain(
			[
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
		expect(await term.waitFor("  user\n")).toContain(
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
		);
		term.type("/cmd");
		await term.waitForEnd(
			["› /cmd", "→ projcmd     [p] Project command", "  usercmd     [u] User command", "  clicmd      [t] CLI command"].join("\n"),
		);
		term.keys("C-u", "C-t");
		await term.waitForEnd(" Warning: shortcut fired\n\n›");
		term.type("/model");
		await term.waitForEnd("› /model\n→ model       Select a model (optionally filtered: /model <search>)");
		term.keys("C-c", "C-d");
		await term.waitForEnd("EXIT=0");
	}, TIMEOUT);

	test("extension UI: select and confirm dialogs, countdown, status, widgets, unavailable methods, prompt events", async () => {
		await using world = new TempWorld();
		const log = join(world.root, "events.log");
		const ext = world.write(
			"ui-ext.ts",
			`import { appendFileSync } from "node:fs";
export default function (pi) {
	const log = (line) => appendFileSync(${JSON.stringify(log)}, line + "\\n");
	pi.on("ui_prompt_start", (e) => log("start " + e.method + " " + e.title));
	pi.on("ui_prompt_end", (e) => log("end " + e.method + " " + e.cancelled));
	pi.on("session_start", async (_e, ctx) => {
		ctx.ui.setStatus("mode", "status: ready");
		ctx.ui.setWidget("top", ["widget above"]);
		ctx.ui.setWidget("bottom", ["widget below"], { placement: "belowEditor" });
		await ctx.ui.custom(() => ({}));
		await ctx.ui.custom(() => ({}));
	});
	pi.registerCommand("pick", {
		description: "Pick a colour",
		handler: async (_a, ctx) => {
			const colour = await ctx.ui.select("Pick a colour", ["red", "green", "blue"]);
			const sure = await ctx.ui.confirm("Really?", "Use " + colour + "?");
			ctx.ui.notify("picked " + colour + ", sure: " + sure);
		},
	});
	pi.registerCommand("hurry", {
		description: "A dialog that times out",
		handler: async (_a, ctx) => {
			const answer = await ctx.ui.select("Pick fast", ["a", "b"], { timeout: 2500 });
			ctx.ui.notify("timed out with " + answer, "error");
		},
	});
}
`,
		);
		await using term = new Terminal(world, ["-ne", "-e", ext]);
		const start = await term.waitForEnd("widget above\nstatus: ready\n›\nwidget below");
		expect(start).toContain(` ctx.ui.custom() needs a full-screen UI, which this terminal mode does not have (${ext}); it did nothing.`);
		expect(start.split("ctx.ui.custom()").length).toBe(2);
		term.submit("/pick");
		expect(await term.waitFor("blue")).toContain("◆  Pick a colour\n│  ● red\n│  ○ green\n│  ○ blue");
		term.keys("Down", "Enter");
		await term.waitFor("Use green?");
		term.keys("Left", "Enter");
		expect(await term.waitFor("picked")).toContain("\n picked green, sure: true\n");
		term.submit("/hurry");
		await term.waitFor(/Pick fast \([12]s\)/);
		expect(await term.waitFor("timed out with")).toContain(" Error: timed out with undefined");
		expect((await Bun.file(log).text()).split("\n")).toEqual([
			"start select Pick a colour",
			"end select false",
			"start confirm Really?",
			"end confirm false",
			"start select Pick fast",
			"end select true",
			"",
		]);
		term.keys("C-d");
		await term.waitForEnd("EXIT=0");
	}, TIMEOUT);

	test("custom messages through message renderers (pi-tui components, text, fallback); ctx.shutdown() exits", async () => {
		await using world = new TempWorld();
		const ext = world.write(
			"messages.ts",
			`import { Box, Text } from "@mariozechner/pi-tui";
export default function (pi) {
	pi.registerMessageRenderer("boxed", (message, { expanded }, theme) => {
		const box = new Box(2, 0);
		box.addChild(new Text(theme.bold("Status: ") + message.content + (expanded ? " (expanded)" : "")));
		return box;
	});
	pi.registerMessageRenderer("broken", () => { throw new Error("renderer bug"); });
	pi.registerCommand("status", {
		description: "Send custom messages",
		handler: async () => {
			pi.sendMessage({ customType: "boxed", content: "all good", display: true });
			pi.sendMessage({ customType: "broken", content: "still readable", display: true });
			pi.sendMessage({ customType: "plain", content: "no renderer", display: true });
			pi.sendMessage({ customType: "hidden", content: "not shown", display: false });
		},
	});
	pi.registerCommand("bye", { description: "Leave", handler: async (_a, ctx) => ctx.shutdown() });
	pi.on("session_shutdown", (e) => console.log("shutdown: " + e.reason));
}
`,
		);
		await using term = new Terminal(world, ["-ne", "-e", ext]);
		await term.waitFor("\n›");
		term.submit("/status");
		await term.waitForEnd("\n\n   Status: all good\n\n [broken] still readable\n\n [plain] no renderer\n\n›");
		expect(term.transcript()).not.toContain("not shown");
		term.submit("/bye");
		await term.waitForEnd("\nshutdown: quit\nEXIT=0");
	}, TIMEOUT);

	test("ctx.ui.editor opens $VISUAL on the prefilled text; quietStartup hides the list unless --verbose", async () => {
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
			const start = await term.waitFor("\n›");
			expect(start).not.toContain("[Extensions]");
			expect(start).toStartWith(" Warning: No model is configured.");
			term.submit("/write");
			await term.waitForEnd(" got: draft and more\n\n›");
			term.keys("C-d");
			await term.waitFor("EXIT=0");
		}
		await using verbose = new Terminal(world, ["-ne", "-e", ext, "--verbose"]);
		expect(await verbose.waitFor("\n›")).toContain(`[Extensions]\n  path\n    ${ext}\n`);
	}, TIMEOUT);

	test("/reload picks up an edited extension", async () => {
		await using world = new TempWorld();
		const ext = world.write("greet.ts", COMMAND("greet", "Greets v1").replace('"greet ran"', '"hello v1"'));
		await using term = new Terminal(world, ["-ne", "-e", ext]);
		await term.waitFor("\n›");
		term.submit("/greet");
		await term.waitFor(" hello v1");
		world.write(ext, COMMAND("greet", "Greets v2").replace('"greet ran"', '"hello v2"'));
		term.submit("/reload");
		await term.waitForEnd(" Reloaded 1 extension.\n\n[Extensions]\n  greet.ts\n\n›");
		term.type("/gre");
		await term.waitForEnd("→ greet       [t] Greets v2");
		term.keys("Enter");
		await term.waitForEnd(" hello v2\n\n›");
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
		await term.waitFor("\n›");
		term.submit("!echo hi");
		await term.waitForEnd(" $ echo hi\n   hi\n\n›");
		term.submit("!!fake");
		await term.waitForEnd(" $ fake  (kept out of the model's context)\n   from the hook\n\n›");
		term.submit("!sh -c 'exit 3'");
		await term.waitForEnd(" $ sh -c 'exit 3'\n   exit code 3\n\n›");
		term.submit("!forbidden");
		const screen = await term.waitForEnd(" Error: not allowed\n\n›");
		expect(screen).toContain(` Extension "${ext}" error: not allowed`);
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
		await term.waitFor("\n›");
		const pid = Number(/pid (\d+)/.exec(await Bun.file(log).text())![1]);
		term.close();
		const alive = () => {
			try {
				process.kill(pid, 0);
				return true;
			} catch {
				return false;
			}
		};
		for (let i = 0; i < 100 && alive(); i++) await Bun.sleep(50);
		expect(alive()).toBe(false);
		expect(await Bun.file(log).text()).toBe(`pid ${pid}\nshutdown quit\n`);
	}, TIMEOUT);
});
