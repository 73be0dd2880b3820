// HTML export through the binary: `agent --export <session> [out]` and rpc `export_html` write one
// self-contained page — markdown rendered, code and raw HTML escaped, nothing from the network.
import { expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { RpcAgent } from "../support/rpc.ts";
import { MODEL, mockWorld, type MockWorld } from "../support/world.ts";

const T = 30_000;

const ANSWER = [
	"## Findings",
	"",
	"One test fails: `sum(1, 2)` returns **4**.",
	"",
	"```ts",
	"return a + b + 1; // <script>alert(1)</script>",
	"```",
	"",
	"- remove the `+ 1`",
	"",
	'<img src="http://example.com/track.png"> and [click](javascript:alert(1)) and ![chart](https://example.com/chart.png)',
].join("\n");

/** A saved session: a bash tool call, then a markdown answer with code and hostile bits. */
async function sessionWithMarkdown(world: MockWorld): Promise<string> {
	world.mock.script({ toolCalls: [{ id: "call_1", name: "bash", arguments: { command: "echo from-bash" } }] }, { text: ANSWER });
	const r = await world.run(["-ne", "--model", MODEL.openai, "-p", "why does the test fail? <i>not italic</i>"]);
	expect(r.code).toBe(0);
	return world.onlySessionFile();
}

/** What every exported page must be: whole, rendered, escaped, offline. */
function expectSafePage(html: string): void {
	expect(html.startsWith("<!doctype html>")).toBe(true);
	expect(html.trimEnd().endsWith("</html>")).toBe(true);
	// Markdown rendered.
	expect(html).toContain("<h2>Findings</h2>");
	expect(html).toContain("<code>sum(1, 2)</code>");
	expect(html).toContain("<strong>4</strong>");
	expect(html).toContain("<li>remove the <code>+ 1</code></li>");
	// Code and raw HTML shown as text, never run.
	expect(html).toContain("return a + b + 1; // &lt;script&gt;alert(1)&lt;/script&gt;");
	expect(html).toContain("&lt;i&gt;not italic&lt;/i&gt;");
	expect(html).not.toContain("<script");
	expect(html).not.toContain("javascript:");
	expect(html).toContain("&lt;img src=&quot;http://example.com/track.png&quot;&gt;");
	// Nothing loaded from anywhere: no src/href to another host except plain links a person may follow.
	expect(html).not.toMatch(/\ssrc="(?!data:)/);
	expect(html).not.toMatch(/<link\b/);
	expect(html).not.toMatch(/@import|url\(/);
	expect(html).toContain('<a class="image-link" href="https://example.com/chart.png" rel="noreferrer noopener">[image: chart]</a>');
	// The tool call and its result.
	expect(html).toContain("$ echo from-bash");
	expect(html).toContain("Result of bash");
}

test("agent --export writes the session as a page next to you, or where you say, and prints the path", async () => {
	await using world = await mockWorld();
	const file = await sessionWithMarkdown(world);

	const r = await world.run(["--export", file]);
	expect(r.stderr).toBe("");
	expect(r.code).toBe(0);
	const expected = join(world.cwd, `agent-session-${basename(file, ".jsonl")}.html`);
	expect(r.stdout).toBe(`${expected}\n`);
	expectSafePage(readFileSync(expected, "utf8"));

	const out = join(world.root, "out", "..", "transcript.html");
	const named = await world.run(["--export", file, out]);
	expect(named.code).toBe(0);
	expect(named.stdout).toBe(`${join(world.root, "transcript.html")}\n`);
	const page = readFileSync(join(world.root, "transcript.html"), "utf8");
	expectSafePage(page);
	// The first prompt titles the page; the header names the folder and the model.
	expect(page).toContain("<title>why does the test fail? &lt;i&gt;not italic&lt;/i&gt;</title>");
	expect(page).toContain(`<dd>${world.cwd}</dd>`);
	expect(page).toContain("<dd>mock/mock-model</dd>");

	// An id prefix finds the session as --session does.
	const id = JSON.parse(readFileSync(file, "utf8").split("\n")[0]!).id as string;
	const byId = await world.run(["--export", id.slice(0, 13), "by-id.html"]);
	expect(byId.stderr).toBe("");
	expect(byId.stdout).toBe(`${join(world.cwd, "by-id.html")}\n`);
	expectSafePage(readFileSync(join(world.cwd, "by-id.html"), "utf8"));
}, T);

test("agent --export of a session with a damaged message line: the page is written without it, the line is named", async () => {
	await using world = await mockWorld();
	const file = await sessionWithMarkdown(world);
	const lines = readFileSync(file, "utf8").trimEnd().split("\n");
	// The first message line (the prompt) gets a shape the code cannot use.
	const at = lines.findIndex((l) => l.startsWith('{"type":"message"'));
	const entry = JSON.parse(lines[at]!);
	entry.message.content = 42;
	lines[at] = JSON.stringify(entry);
	writeFileSync(file, `${lines.join("\n")}\n`);
	const r = await world.run(["--export", file, "page.html"]);
	expect(r).toEqual({
		stdout: `${join(world.cwd, "page.html")}\n`,
		stderr: `Warning: ${file}:${at + 1}: skipped a "message" entry of an unexpected shape: message.content must be a string or an array of content blocks\n`,
		code: 0,
	});
	const page = readFileSync(join(world.cwd, "page.html"), "utf8");
	expect(page).toContain("<h2>Findings</h2>");
	expect(page).not.toContain("not italic");
}, T);

test("agent --export with a file that is not a session says so and exits 1", async () => {
	await using world = await mockWorld();
	const missing = await world.run(["--export", join(world.cwd, "nope.jsonl")]);
	expect(missing.code).toBe(1);
	expect(missing.stdout).toBe("");
	expect(missing.stderr).toContain("nope.jsonl");
	const notSession = world.write("project/notes.jsonl", '{"type":"model_change","id":"a1b2c3d4","parentId":null,"timestamp":"2026-01-01T00:00:00.000Z","provider":"mock","modelId":"m"}\n');
	const bad = await world.run(["--export", notSession]);
	expect(bad.code).toBe(1);
	expect(bad.stderr).toContain(`${notSession} is not a session file`);
}, T);

test("rpc export_html writes the current session's page (relative paths from the agent's folder)", async () => {
	await using world = await mockWorld();
	world.mock.script({ text: ANSWER });
	await using rpc = new RpcAgent(world, ["--model", MODEL.openai, "--no-session"]);
	const from = rpc.records.length;
	await rpc.request({ type: "prompt", message: "why does the test fail? <i>not italic</i>" });
	await rpc.event("agent_settled", from);
	const r = await rpc.request({ type: "export_html", outputPath: "pages/session.html" });
	expect(r).toMatchObject({ type: "response", command: "export_html", success: true, data: { path: join(world.cwd, "pages/session.html") } });
	const html = readFileSync(r.data.path, "utf8");
	expect(html).toContain("<h2>Findings</h2>");
	expect(html).not.toContain("<script");
	// Without a path: the default name, in the agent's folder.
	const d = await rpc.request({ type: "export_html" });
	expect(d.data.path.startsWith(join(world.cwd, "agent-session-"))).toBe(true);
	expect(existsSync(d.data.path)).toBe(true);
	expect(await rpc.end()).toBe(0);
}, T);
