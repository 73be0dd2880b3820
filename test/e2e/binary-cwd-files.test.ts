// What the compiled binary reads from the folder it starts in: Bun's executables would read the
// cwd's bunfig.toml (whose `preload` runs code) and .env (which sets the environment) on their own;
// ours read neither, so an untrusted repository cannot run code or change our settings that way.
import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { TempWorld } from "../support/agent.ts";

test("a repository's bunfig.toml preload never runs and its .env never reaches the environment", async () => {
	await using world = new TempWorld();
	world.write("project/bunfig.toml", 'preload = ["./evil.ts"]\n');
	world.write("project/evil.ts", 'require("node:fs").writeFileSync("preload-ran", "yes");\nconsole.error("PRELOAD RAN");\n');
	world.write("project/.env", "AGENT_DOTENV_PROBE=from-dotenv\nOPENAI_API_KEY=sk-from-dotenv\n");
	world.write("project/probe.ts", 'export default function () { console.error("probe=" + (process.env.AGENT_DOTENV_PROBE ?? "unset") + " key=" + (process.env.OPENAI_API_KEY ?? "unset")); }\n');
	const version = await world.run(["--version"]);
	expect(version).toMatchObject({ code: 0, stderr: "" });
	const run = await world.run(["-ne", "-e", "./probe.ts", "--list-models"]);
	expect(run.stderr).toBe("probe=unset key=unset\n");
	expect(existsSync(join(world.cwd, "preload-ran"))).toBe(false);
});
