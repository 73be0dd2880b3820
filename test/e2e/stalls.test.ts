// A provider that stalls is detected, not waited on for ever (issue 12, defect 6): a header timeout
// (retried, nothing had streamed), an idle-stream timeout after partial text (not retried: the
// answer had begun), and one stderr line per retry in print mode. Timeouts come from settings.json,
// short, so the tests stay fast.
import { describe, expect, test } from "bun:test";
import { MODEL, type MockWorld, mockWorld, type Protocol, sessionMessages } from "../support/world.ts";
import { until } from "../support/processes.ts";

const PROVIDER: Record<Protocol, string> = { openai: "mock", "anthropic": "mock-anthropic" };

function settings(world: MockWorld, values: Record<string, unknown>): void {
	world.write("home/.agent/settings.json", JSON.stringify(values));
}

for (const protocol of ["openai", "anthropic"] as Protocol[]) {
	const model = ["-ne", "--model", MODEL[protocol]];
	const provider = PROVIDER[protocol];

	describe(`stalls (${protocol})`, () => {
		test("no response head: the header timeout fires, each retry is one stderr line, the third attempt answers", async () => {
			await using world = await mockWorld();
			// 1 s, not less: the answer that does come must beat it on a loaded machine.
			settings(world, { httpHeaderTimeoutMs: 1000, retry: { baseDelayMs: 1 } });
			world.mock.script({ text: "never", delayMs: 600_000 }, { text: "never", delayMs: 600_000 }, { text: "Finally." });
			const r = await world.run([...model, "-p", "hello?"]);
			const why = `No response from ${provider} within 1 s (header timeout; settings "httpHeaderTimeoutMs" changes it)`;
			expect(r).toEqual({ stdout: "Finally.\n", stderr: `Retrying ${provider} in 1 ms (attempt 2/4): ${why}\nRetrying ${provider} in 2 ms (attempt 3/4): ${why}\n`, code: 0 });
			expect(world.mock.requests).toHaveLength(3);
		});

		test("no response head, and the retries run out: exit 1 with the reason", async () => {
			await using world = await mockWorld();
			settings(world, { httpHeaderTimeoutMs: 200, retry: { maxRetries: 1, baseDelayMs: 1 } });
			world.mock.script({ text: "never", delayMs: 600_000 }, { text: "never", delayMs: 600_000 });
			const r = await world.run([...model, "-p", "hello?"]);
			expect(r.code).toBe(1);
			expect(r.stdout).toBe("");
			expect(r.stderr).toEndWith(`Error: No response from ${provider} within 200 ms (header timeout; settings "httpHeaderTimeoutMs" changes it)\n`);
			expect(world.mock.requests).toHaveLength(2);
		});

		test("a stream that stops after partial text: the idle timeout ends the run (exit 1), closes the connection, keeps the partial answer", async () => {
			await using world = await mockWorld();
			settings(world, { httpIdleTimeoutMs: 1000 });
			world.mock.script({ text: "I will never finish this sentence", hang: true });
			const r = await world.run([...model, "-p", "talk"]);
			expect(r).toEqual({ stdout: "", stderr: `Error: ${provider} stopped sending: no data for 1 s (idle timeout; settings "httpIdleTimeoutMs" changes it)\n`, code: 1 });
			// Not retried: an answer had begun.
			expect(world.mock.requests).toHaveLength(1);
			await until(() => world.mock.openStreams === 0, "the mock to see the connection close");
			const [, assistant] = sessionMessages(world.onlySessionFile());
			expect(assistant).toMatchObject({ role: "assistant", stopReason: "error" });
			expect(assistant.content[0].text.length).toBeGreaterThan(0);
		});

		test("a 503 is retried with one line naming the provider, the wait, the attempt and the status", async () => {
			await using world = await mockWorld();
			settings(world, { retry: { baseDelayMs: 1 } });
			world.mock.script({ status: 503, message: "overloaded, try later" }, { text: "ok" });
			const r = await world.run([...model, "-p", "hi"]);
			expect(r).toEqual({ stdout: "ok\n", stderr: `Retrying ${provider} in 1 ms (attempt 2/4): 503 overloaded, try later\n`, code: 0 });
		});
	});
}

test("json mode reports the retry as auto_retry_start / auto_retry_end events and keeps stderr clean", async () => {
	await using world = await mockWorld();
	settings(world, { httpHeaderTimeoutMs: 1000, retry: { baseDelayMs: 1 } });
	world.mock.script({ text: "never", delayMs: 600_000 }, { text: "done" });
	const r = await world.run(["-ne", "--model", MODEL.openai, "--mode", "json", "-p", "hi"]);
	expect(r.code).toBe(0);
	expect(r.stderr).toBe("");
	const events = r.stdout.trim().split("\n").map((l) => JSON.parse(l));
	expect(events.find((e) => e.type === "auto_retry_start")).toMatchObject({ attempt: 1, maxAttempts: 3, delayMs: 1, errorMessage: expect.stringContaining("header timeout") });
	expect(events.find((e) => e.type === "auto_retry_end")).toMatchObject({ success: true });
});

test("a timeout setting of the wrong type names the file", async () => {
	await using world = await mockWorld();
	const path = world.write("home/.agent/settings.json", JSON.stringify({ httpIdleTimeoutMs: "soon" }));
	const r = await world.run(["-ne", "--model", MODEL.openai, "-p", "hi"]);
	expect(r.code).toBe(1);
	expect(r.stderr).toStartWith(`Error: "httpIdleTimeoutMs" in ${path} must be a number of milliseconds (0 or more) or "disabled".`);
});
