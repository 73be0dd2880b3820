// The extension UI sub-protocol through the binary (reference §7.4, SPEC §7): each dialog answered,
// cancelled and timed out, a signal that ends a dialog, malformed answers reported while the
// dialog keeps waiting, fire-and-forget requests, unavailable methods noted once, extension_error.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { RpcAgent, type RpcRecord } from "../support/rpc.ts";
import { MODEL, mockWorld, type MockWorld } from "../support/world.ts";

const T = 30_000;
const FIXTURE = readFileSync(join(import.meta.dir, "../fixtures/extensions/rpc-ui.ts"), "utf8");

async function startWithUi(world: MockWorld): Promise<{ rpc: RpcAgent; ext: string }> {
	const ext = world.write("project/rpc-ui.ts", FIXTURE);
	return { rpc: new RpcAgent(world, ["--model", MODEL.openai, "--no-session", "-e", ext]), ext };
}

/** Run an extension command through prompt; resolves with the dialog request it opens. */
async function openDialog(rpc: RpcAgent, command: string): Promise<{ request: RpcRecord; from: number; promptId: string }> {
	const from = rpc.records.length;
	const promptId = `prompt-${from}`;
	rpc.send({ type: "prompt", id: promptId, message: command });
	const request = await rpc.waitFor((r) => r.type === "extension_ui_request" && r.method !== "notify", `a dialog for ${command}`, from);
	return { request, from, promptId };
}

/** The notify the fixture sends with what the dialog returned, and the prompt's response after it. */
async function outcome(rpc: RpcAgent, from: number, promptId: string): Promise<string> {
	const note = await rpc.waitFor((r) => r.type === "extension_ui_request" && r.method === "notify", "the outcome notify", from);
	const response = await rpc.waitFor((r) => r.id === promptId, "the prompt response", from);
	expect(response).toEqual({ id: promptId, type: "response", command: "prompt", success: true, data: { disposition: "handled" } });
	return note.message;
}

test("select, confirm, input and editor: request fields, answers, cancellation", async () => {
	await using world = await mockWorld();
	const { rpc } = await startWithUi(world);
	await using _ = rpc;

	let d = await openDialog(rpc, "/ask-select");
	expect(d.request).toEqual({ type: "extension_ui_request", id: expect.stringMatching(/^[0-9a-f-]{36}$/), method: "select", title: "Pick a colour", options: ["red", "green"] });
	// The dialog waits; other commands still get answers meanwhile.
	expect((await rpc.request({ type: "get_state" })).success).toBe(true);
	rpc.send({ type: "extension_ui_response", id: d.request.id, value: "green" });
	expect(await outcome(rpc, d.from, d.promptId)).toBe('select: "green"');

	d = await openDialog(rpc, "/ask-select");
	rpc.send({ type: "extension_ui_response", id: d.request.id, cancelled: true });
	expect(await outcome(rpc, d.from, d.promptId)).toBe("select: undefined");

	d = await openDialog(rpc, "/ask-confirm");
	expect(d.request).toEqual({ type: "extension_ui_request", id: expect.any(String), method: "confirm", title: "Proceed?", message: "This deletes the build folder." });
	rpc.send({ type: "extension_ui_response", id: d.request.id, confirmed: true });
	expect(await outcome(rpc, d.from, d.promptId)).toBe("confirm: true");

	d = await openDialog(rpc, "/ask-confirm");
	rpc.send({ type: "extension_ui_response", id: d.request.id, cancelled: true });
	expect(await outcome(rpc, d.from, d.promptId)).toBe("confirm: false");

	d = await openDialog(rpc, "/ask-input");
	expect(d.request).toEqual({ type: "extension_ui_request", id: expect.any(String), method: "input", title: "Branch name?", placeholder: "feature/..." });
	rpc.send({ type: "extension_ui_response", id: d.request.id, value: "fix/rpc" });
	expect(await outcome(rpc, d.from, d.promptId)).toBe('input: "fix/rpc"');

	d = await openDialog(rpc, "/ask-editor");
	expect(d.request).toEqual({ type: "extension_ui_request", id: expect.any(String), method: "editor", title: "Edit the plan", prefill: "1. read\n2. fix\n" });
	rpc.send({ type: "extension_ui_response", id: d.request.id, value: "1. read\n2. fix\n3. test\n" });
	expect(await outcome(rpc, d.from, d.promptId)).toBe('editor: "1. read\\n2. fix\\n3. test\\n"');

	d = await openDialog(rpc, "/ask-editor");
	rpc.send({ type: "extension_ui_response", id: d.request.id, cancelled: true });
	expect(await outcome(rpc, d.from, d.promptId)).toBe("editor: undefined");
	expect(world.mock.requests).toHaveLength(0);
	expect(await rpc.end()).toBe(0);
}, T);

test("dialogs with a timeout carry it and resolve to their defaults when it passes; a late answer is reported", async () => {
	await using world = await mockWorld();
	const { rpc } = await startWithUi(world);
	await using _ = rpc;
	const cases: [string, string, string][] = [
		["/ask-select 30", "select", "select: undefined"],
		["/ask-confirm 30", "confirm", "confirm: false"],
		["/ask-input 30", "input", "input: undefined"],
	];
	for (const [command, method, expected] of cases) {
		const d = await openDialog(rpc, command);
		expect(d.request).toMatchObject({ method, timeout: 30 });
		expect(await outcome(rpc, d.from, d.promptId)).toBe(expected);
		rpc.send({ type: "extension_ui_response", id: d.request.id, value: "too late", confirmed: true });
		expect(await rpc.waitFor((r) => r.type === "response" && r.command === "extension_ui_response", "the late-answer error", d.from)).toEqual({
			id: d.request.id,
			type: "response",
			command: "extension_ui_response",
			success: false,
			error: `No extension UI request is waiting for an answer with id "${d.request.id}" (already answered, timed out, or never sent).`,
		});
	}
	expect(await rpc.end()).toBe(0);
}, T);

test("an aborted signal ends a dialog with its default", async () => {
	await using world = await mockWorld();
	const { rpc } = await startWithUi(world);
	await using _ = rpc;
	const d = await openDialog(rpc, "/ask-with-signal");
	expect(d.request).toMatchObject({ method: "select", title: "Wait for it" });
	await rpc.request({ type: "prompt", message: "/abort-dialog" });
	expect(await outcome(rpc, d.from, d.promptId)).toBe("signalled select: undefined");
	expect(await rpc.end()).toBe(0);
}, T);

test("malformed answers are reported and the dialog keeps waiting for a good one", async () => {
	await using world = await mockWorld();
	const { rpc } = await startWithUi(world);
	await using _ = rpc;
	const errorFor = async (answer: RpcRecord, from: number) => {
		const before = rpc.all("response", from).length;
		rpc.send({ type: "extension_ui_response", ...answer });
		await rpc.waitFor(() => rpc.all("response", from).length > before, "an error response", from);
		return rpc.all("response", from).at(-1)!;
	};

	let d = await openDialog(rpc, "/ask-select");
	expect(await errorFor({ id: d.request.id, value: "blue" }, d.from)).toEqual({
		id: d.request.id,
		type: "response",
		command: "extension_ui_response",
		success: false,
		error: `Invalid extension_ui_response for select request "${d.request.id}": expected "value": one of the options, or "cancelled": true. The dialog is still waiting.`,
	});
	expect((await errorFor({ value: "red" }, d.from)).error).toBe('extension_ui_response needs "id": the id of the extension_ui_request it answers.');
	rpc.send({ type: "extension_ui_response", id: d.request.id, value: "red" });
	expect(await outcome(rpc, d.from, d.promptId)).toBe('select: "red"');

	d = await openDialog(rpc, "/ask-confirm");
	expect((await errorFor({ id: d.request.id, confirmed: "yes" }, d.from)).error).toBe(
		`Invalid extension_ui_response for confirm request "${d.request.id}": expected "confirmed": true or false, or "cancelled": true. The dialog is still waiting.`,
	);
	rpc.send({ type: "extension_ui_response", id: d.request.id, confirmed: false });
	expect(await outcome(rpc, d.from, d.promptId)).toBe("confirm: false");

	// Long enough that the bad answer certainly arrives first.
	d = await openDialog(rpc, "/ask-input 1500");
	expect((await errorFor({ id: d.request.id, value: 42 }, d.from)).error).toBe(
		`Invalid extension_ui_response for input request "${d.request.id}": expected "value": a string, or "cancelled": true. The dialog is still waiting.`,
	);
	// No good answer follows: the timeout still ends it.
	expect(await outcome(rpc, d.from, d.promptId)).toBe("input: undefined");
	expect(await rpc.end()).toBe(0);
}, T);

test("end of stdin ends an open dialog with its default, then the agent exits", async () => {
	await using world = await mockWorld();
	const { rpc } = await startWithUi(world);
	await using _ = rpc;
	const d = await openDialog(rpc, "/ask-confirm");
	expect(await rpc.end()).toBe(0);
	expect(await outcome(rpc, d.from, d.promptId)).toBe("confirm: false");
}, T);

test("fire-and-forget requests, and what a remote client cannot show noted once on stderr", async () => {
	await using world = await mockWorld();
	const { rpc, ext } = await startWithUi(world);
	await using _ = rpc;
	// Twice: the requests repeat, the stderr notes do not.
	for (let round = 0; round < 2; round++) {
		const from = rpc.records.length;
		const response = await rpc.request({ type: "prompt", message: "/fire" });
		expect(response.success).toBe(true);
		const requests = rpc.all("extension_ui_request", from).map(({ id, ...rest }) => {
			expect(id).toMatch(/^[0-9a-f-]{36}$/);
			return rest;
		});
		expect(requests).toEqual([
			{ type: "extension_ui_request", method: "notify", message: "plain note" },
			{ type: "extension_ui_request", method: "notify", message: "careful", notifyType: "warning" },
			{ type: "extension_ui_request", method: "setStatus", statusKey: "build", statusText: "green" },
			{ type: "extension_ui_request", method: "setStatus", statusKey: "build" },
			{ type: "extension_ui_request", method: "setWidget", widgetKey: "todo", widgetLines: ["- one", "- two"], widgetPlacement: "belowEditor" },
			{ type: "extension_ui_request", method: "setWidget", widgetKey: "todo" },
			{ type: "extension_ui_request", method: "setTitle", title: "agent: rpc demo" },
			{ type: "extension_ui_request", method: "set_editor_text", text: "draft text" },
			{ type: "extension_ui_request", method: "set_editor_text", text: "pasted text" },
			{
				type: "extension_ui_request",
				method: "notify",
				message: 'hasUI=true mode=rpc editor="" custom=undefined theme={"success":false,"error":"Theme switching is not available in rpc mode"}',
			},
		]);
	}
	expect(await rpc.end()).toBe(0);
	expect(rpc.stderr).toBe(
		[
			`Note: ctx.ui.setWidget() is not available in rpc mode; it shows only string arrays; a component factory is ignored (${ext}).`,
			`Note: ctx.ui.custom() is not available in rpc mode; it resolved to undefined (${ext}).`,
			`Note: ctx.ui.setFooter() is not available in rpc mode; it does nothing (${ext}).`,
			"",
		].join("\n"),
	);
}, T);

test("extension errors become extension_error lines: a throwing command and a throwing event handler", async () => {
	await using world = await mockWorld();
	world.mock.script({ text: "still answered" });
	const { rpc, ext } = await startWithUi(world);
	await using _ = rpc;
	expect((await rpc.request({ type: "prompt", message: "/boom" })).success).toBe(true);
	expect(await rpc.event("extension_error")).toEqual({ type: "extension_error", extensionPath: "command:boom", event: "command", error: "kaboom" });
	const from = rpc.records.length;
	await rpc.request({ type: "prompt", message: "hello" });
	expect(await rpc.event("extension_error", from)).toEqual({ type: "extension_error", extensionPath: ext, event: "agent_start", error: "agent_start handler failed" });
	const end = await rpc.event("agent_end", from);
	expect(end.messages.at(-1).content).toEqual([{ type: "text", text: "still answered" }]);
	expect(await rpc.end()).toBe(0);
	expect(rpc.badLines).toEqual([]);
}, T);

test("ctx.shutdown() from a command: the command finishes and is answered, then session_shutdown and exit 0", async () => {
	await using world = await mockWorld();
	const { rpc } = await startWithUi(world);
	await using _ = rpc;
	rpc.send({ type: "prompt", id: "bye", message: "/bye" });
	expect(await rpc.exited).toBe(0);
	expect(rpc.records.map(({ id, ...r }) => (r.type === "response" ? { id, ...r } : r))).toEqual([
		{ type: "extension_ui_request", method: "notify", message: "shutdown requested" },
		{ id: "bye", type: "response", command: "prompt", success: true, data: { disposition: "handled" } },
		{ type: "extension_ui_request", method: "notify", message: "session_shutdown: quit" },
	]);
}, T);
