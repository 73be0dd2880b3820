// The two phases of the `pi` object: registration during load, actions after bind, atomic
// commit/discard, stale after invalidate — exact messages.
import { describe, expect, test } from "bun:test";
import {
	createExtension,
	createExtensionAPI,
	ExtensionRuntime,
	failedApiMessage,
	NOT_INITIALIZED_MESSAGE,
	STALE_MESSAGE,
} from "../../../src/core/extensions/api.ts";
import { createEventBus } from "../../../src/core/extensions/event-bus.ts";
import type { ExtensionActions, ProviderConfig } from "../../../src/core/extensions/types.ts";

function setup(path = "/ext/a.ts") {
	const runtime = new ExtensionRuntime("/work");
	const bus = createEventBus();
	const extension = createExtension(path, path, { path, source: "cli", scope: "temporary", origin: "top-level" });
	const load = createExtensionAPI(extension, runtime, bus);
	return { runtime, bus, extension, load, pi: load.api };
}

function recordingActions(calls: string[]): ExtensionActions {
	return {
		sendMessage: (m) => void calls.push(`sendMessage:${m.customType}`),
		sendUserMessage: (c) => void calls.push(`sendUserMessage:${String(c)}`),
		appendEntry: (t) => void calls.push(`appendEntry:${t}`),
		setSessionName: (n) => void calls.push(`setSessionName:${n}`),
		getSessionName: () => "named",
		setLabel: () => {},
		getActiveTools: () => ["read"],
		getAllTools: () => [],
		setActiveTools: () => {},
		getCommands: () => [],
		setModel: async () => true,
		getThinkingLevel: () => "high",
		setThinkingLevel: () => {},
		refreshTools: () => void calls.push("refreshTools"),
		registerProvider: (name, _c, path) => void calls.push(`registerProvider:${name}:${path}`),
		unregisterProvider: (name) => void calls.push(`unregisterProvider:${name}`),
		registerVirtualModel: (c) => void calls.push(`registerVirtualModel:${c.id}`),
		unregisterVirtualModel: (p, id) => void calls.push(`unregisterVirtualModel:${p}/${id}`),
		getSettings: () => ({}),
	};
}

const provider: ProviderConfig = { baseUrl: "http://127.0.0.1:1", api: "openai-completions", apiKey: "K" };

describe("registration phase", () => {
	test("registration methods record in order; on() returns an unsubscribe", () => {
		const { pi, extension } = setup();
		const first = () => {};
		const second = () => {};
		const off = pi.on("session_start", first);
		pi.on("session_start", second);
		pi.registerCommand("hello", { handler: async () => {} });
		pi.registerShortcut("ctrl+alt+p", { handler: () => {} });
		expect(extension.handlers.get("session_start")).toEqual([first, second]);
		off();
		off();
		expect(extension.handlers.get("session_start")).toEqual([second]);
		expect([...extension.commands.keys()]).toEqual(["hello"]);
		expect([...extension.shortcuts.keys()]).toEqual(["ctrl+alt+p"]);
	});

	test("on() with an unknown event name is a warning with a did-you-mean, not an error", () => {
		const { pi, extension } = setup();
		pi.on("sesion_start" as never, () => {});
		pi.on("sesion_start" as never, () => {});
		pi.on("quantum_leap" as never, () => {});
		expect(extension.warnings.map((w) => w.message)).toEqual([
			'Unknown event "sesion_start" in pi.on() (did you mean "session_start"?): its handler never runs. This agent knows the events of pi 1.6.',
			'Unknown event "quantum_leap" in pi.on(): its handler never runs. This agent knows the events of pi 1.6.',
		]);
	});

	test("every action method throws the load-time message before bind; setModel rejects", async () => {
		const { pi } = setup();
		const actions: (() => unknown)[] = [
			() => pi.sendMessage({ customType: "x", content: "y", display: true }),
			() => pi.sendUserMessage("hi"),
			() => pi.appendEntry("x"),
			() => pi.setSessionName("n"),
			() => pi.getSessionName(),
			() => pi.setLabel("id", "l"),
			() => pi.getActiveTools(),
			() => pi.getAllTools(),
			() => pi.setActiveTools([]),
			() => pi.getCommands(),
			() => pi.getThinkingLevel(),
			() => pi.setThinkingLevel("low"),
		];
		for (const call of actions) expect(call).toThrow(NOT_INITIALIZED_MESSAGE);
		const result = pi.setModel({} as never);
		expect(result).toBeInstanceOf(Promise);
		await expect(result).rejects.toThrow(/^Extension runtime not initialized$/);
	});

	test("exec works during load", async () => {
		const { pi } = setup();
		const r = await pi.exec("sh", ["-c", "echo out; echo err >&2; exit 3"]);
		expect(r).toEqual({ stdout: "out\n", stderr: "err\n", code: 3, killed: false });
		const t = await pi.exec("sleep", ["5"], { timeout: 50 });
		expect(t.killed).toBe(true);
		expect((await pi.exec("/no/such/program", [])).code).toBe(127);
	});

	test("getFlag sees its own flag's default during the factory, and only its own", () => {
		const { pi, runtime } = setup();
		pi.registerFlag("plan", { type: "boolean", default: true });
		expect(pi.getFlag("plan")).toBe(true);
		expect(pi.getFlag("other")).toBeUndefined();
		expect(runtime.flagValues.has("plan")).toBe(false);
	});
});

describe("reserved flags", () => {
	test("a function for the CLI's flag names is called once, and only when an extension registers a flag", () => {
		let calls = 0;
		const runtime = new ExtensionRuntime("/work", () => {
			calls++;
			return new Set(["model"]);
		});
		const path = "/ext/a.ts";
		const extension = createExtension(path, path, { path, source: "cli", scope: "temporary", origin: "top-level" });
		const pi = createExtensionAPI(extension, runtime, createEventBus()).api;
		pi.registerTool({ name: "t", label: "T", description: "", parameters: {} as never, execute: async () => ({ content: [], details: {} }) });
		pi.on("session_start", () => {});
		expect(calls).toBe(0);
		expect(() => pi.registerFlag("model", {})).toThrow('registerFlag("model"): --model is a built-in flag; give the extension\'s flag another name');
		pi.registerFlag("mine", { type: "string" });
		expect(calls).toBe(1);
		expect(runtime.reservedFlags).toEqual(new Set(["model"]));
		expect(calls).toBe(1);
	});
});

describe("commit and discard", () => {
	test("commit applies flag defaults and queues providers until bind, flushed in order", () => {
		const { pi, load, runtime } = setup();
		pi.registerFlag("plan", { type: "string", default: "fast" });
		pi.registerProvider("one", provider);
		pi.registerProvider("two", provider);
		pi.unregisterProvider("one");
		pi.registerVirtualModel({ provider: "two", id: "v", target: "two/m" });
		expect(runtime.queuedProviders()).toHaveLength(0);
		load.commit();
		expect(runtime.flagValues.get("plan")).toBe("fast");
		const calls: string[] = [];
		runtime.bind(recordingActions(calls));
		expect(calls).toEqual(["registerProvider:two:/ext/a.ts", "unregisterProvider:one", "registerVirtualModel:v"]);
		pi.registerProvider("three", provider);
		expect(calls.at(-1)).toBe("registerProvider:three:/ext/a.ts");
	});

	test("discard drops flag defaults, queued providers and bus listeners; the API answers the failed message", () => {
		const { pi, load, runtime, bus } = setup("/ext/broken.ts");
		const heard: unknown[] = [];
		pi.registerFlag("plan", { type: "boolean", default: true });
		pi.registerProvider("p", provider);
		pi.events.on("chan", (d) => void heard.push(d));
		expect(bus.listenerCount("chan")).toBe(1);
		load.discard();
		expect(runtime.flagValues.size).toBe(0);
		expect(bus.listenerCount("chan")).toBe(0);
		bus.emit("chan", 1);
		expect(heard).toEqual([]);
		const calls: string[] = [];
		runtime.bind(recordingActions(calls));
		expect(calls).toEqual([]);
		const message = failedApiMessage("/ext/broken.ts");
		expect(message).toBe('Extension "/ext/broken.ts" failed to load and its API is no longer active.');
		expect(() => pi.registerTool({} as never)).toThrow(message);
		expect(() => pi.on("agent_start", () => {})).toThrow(message);
		expect(() => pi.events.emit("chan")).toThrow(message);
		expect(() => pi.sendMessage({ customType: "x", content: "", display: false })).toThrow(message);
	});

	test("after bind, actions reach the session; a tool registered later refreshes tools", async () => {
		const { pi, load, runtime } = setup();
		load.commit();
		const calls: string[] = [];
		runtime.bind(recordingActions(calls));
		pi.sendMessage({ customType: "note", content: "x", display: true });
		expect(pi.getSessionName()).toBe("named");
		expect(await pi.setModel({} as never)).toBe(true);
		pi.registerTool({ name: "late", label: "Late", description: "", parameters: {} as never, execute: async () => ({ content: [], details: {} }) });
		expect(calls).toEqual(["sendMessage:note", "refreshTools"]);
	});
});

describe("invalidation", () => {
	test("every call on a stale API throws the stale message; the bus survives without its listeners", async () => {
		const { pi, load, runtime, bus } = setup();
		pi.events.on("chan", () => {});
		load.commit();
		runtime.bind(recordingActions([]));
		const other = bus.on("chan", () => {});
		runtime.invalidate();
		expect(bus.listenerCount("chan")).toBe(1);
		other();
		for (const call of [() => pi.on("agent_start", () => {}), () => pi.registerCommand("x", { handler: () => {} }), () => pi.getActiveTools(), () => pi.getFlag("x"), () => pi.events.on("c", () => {})]) {
			expect(call).toThrow(STALE_MESSAGE);
		}
		await expect(pi.setModel({} as never)).rejects.toThrow(STALE_MESSAGE);
		expect(STALE_MESSAGE).toStartWith("This extension ctx is stale after session replacement or reload.");
	});
});

describe("pi.events", () => {
	test("shared across extensions; a throwing listener does not stop the others", () => {
		const a = setup("/a.ts");
		const runtimeB = a.runtime;
		const b = createExtensionAPI(createExtension("/b.ts", "/b.ts", { path: "/b.ts", source: "cli", scope: "temporary", origin: "top-level" }), runtimeB, a.bus);
		const got: unknown[] = [];
		a.pi.events.on("ping", () => {
			throw new Error("listener broke");
		});
		b.api.events.on("ping", (d) => void got.push(d));
		a.pi.events.emit("ping", 7);
		expect(got).toEqual([7]);
	});
});
