// What a person sees on a terminal when a print run writes its own lines: stdout and stderr lines
// go out exactly as written (src/stdio.ts hands them to Bun's console), with no colour Bun adds.
import { expect, test } from "bun:test";
import { agentBinary, TempWorld } from "../support/agent.ts";
import { VERSION } from "../../src/config.ts";

/** Run the binary in a pseudo-terminal (stdin, stdout and stderr all on it); what the screen got. */
async function onTerminal(world: TempWorld, argv: string[]): Promise<{ code: number; screen: string }> {
	const decoder = new TextDecoder();
	let screen = "";
	const proc = Bun.spawn([agentBinary(), ...argv], {
		cwd: world.cwd,
		env: world.environment({ TERM: "xterm-256color", NO_COLOR: undefined }),
		terminal: { cols: 200, rows: 40, data: (_t, data) => void (screen += decoder.decode(data, { stream: true })) },
	});
	const code = await proc.exited;
	proc.terminal?.close();
	return { code, screen: screen.replaceAll("\r\n", "\n") };
}

test("an error on a terminal's stderr is the error's own text: red from formatError, nothing Bun adds", async () => {
	await using world = new TempWorld();
	const { code, screen } = await onTerminal(world, ["-ne", "--no-session", "--model", "nope/x", "-p", "hi"]);
	expect(code).toBe(1);
	expect(screen).toBe(`\x1b[31mError: No model matches "nope/x".\x1b[39m\nRun "agent --list-models" to see the models you can use, or name the provider: --model <provider>/<id>.\n`);
});

test("a line on a terminal's stdout is written as it is", async () => {
	await using world = new TempWorld();
	const { code, screen } = await onTerminal(world, ["--version"]);
	expect(code).toBe(0);
	expect(screen).toBe(`${VERSION}\n`);
});
