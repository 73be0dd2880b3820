// Calls extension handlers — the only place that does. Each event's dispatch kind is defined
// once, in DISPATCH below; one helper runs a handler, catches, tags and reports the error.

/** A handler as registered with `pi.on(event, handler)`. */
export type EventHandler = (event: any, ctx: any) => unknown;

/** What the runner reads from a loaded extension: handlers per event, in registration order. */
export interface HandlerSource {
	path: string;
	handlers: ReadonlyMap<string, readonly EventHandler[]>;
}

export interface ExtensionErrorReport {
	extensionPath: string;
	event: string;
	error: string;
	stack?: string;
}

export type DispatchKind = "observe" | "chain" | "first" | "aggregate" | "boundary";

/** SPEC §6: every event and how its handlers' results combine. */
export const DISPATCH: Readonly<Record<string, DispatchKind>> = {
	agent_start: "observe",
	agent_end: "observe",
	agent_settled: "observe",
	turn_start: "observe",
	message_start: "observe",
	message_update: "observe",
	tool_execution_start: "observe",
	tool_execution_update: "observe",
	tool_execution_end: "observe",
	session_start: "observe",
	session_shutdown: "observe",
	session_compact: "observe",
	session_compact_failed: "observe",
	session_tree: "observe",
	session_info_changed: "observe",
	model_select: "observe",
	thinking_level_select: "observe",
	after_provider_response: "observe",
	provider_stream_event: "observe",
	ui_prompt_start: "observe",
	ui_prompt_end: "observe",
	bash_execution_update: "observe",
	mcp_servers_change: "observe",
	context: "chain",
	context_with_system: "chain",
	message_end: "chain",
	tool_result: "chain",
	before_provider_request: "chain",
	before_provider_headers: "chain",
	// The agent does no cache warming: accepted, never dispatched (SPEC §6).
	cache_warming_decision: "first",
	tool_call: "first",
	input: "first",
	user_bash: "first",
	session_before_switch: "first",
	session_before_fork: "first",
	session_before_compact: "first",
	session_before_tree: "first",
	project_trust: "first",
	before_agent_start: "aggregate",
	resources_discover: "aggregate",
	turn_end: "boundary",
	agent_before_settle: "boundary",
};

export const EVENT_NAMES: readonly string[] = Object.keys(DISPATCH);

interface Entry {
	path: string;
	handler: EventHandler;
}

export class ExtensionRunner {
	private readonly sources: HandlerSource[];
	private readonly createContext: () => unknown;
	private readonly onError: (report: ExtensionErrorReport) => void;
	private ctx: unknown;

	constructor(sources: HandlerSource[], createContext: () => unknown, onError: (report: ExtensionErrorReport) => void) {
		this.sources = sources;
		this.createContext = createContext;
		this.onError = onError;
	}

	/** Cheap: callers check this before building a payload (SPEC §6: no handlers, no cost). */
	has(event: string): boolean {
		for (const s of this.sources) {
			const list = s.handlers.get(event);
			if (list && list.length > 0) return true;
		}
		return false;
	}

	/** Handlers in load order, then registration order, taken when a dispatch starts. */
	private snapshot(event: string): Entry[] {
		const out: Entry[] = [];
		for (const s of this.sources) {
			const list = s.handlers.get(event);
			if (list) for (const handler of list) out.push({ path: s.path, handler });
		}
		return out;
	}

	report(extensionPath: string, event: string, error: unknown): void {
		const err = error instanceof Error ? error : new Error(String(error));
		this.onError({ extensionPath, event, error: err.message, stack: err.stack });
	}

	/**
	 * Run one handler; a throw (or rejection) is reported and yields undefined. A handler that
	 * returns synchronously is not awaited: the microtask hop would be most of a dispatch's cost.
	 */
	private call(entry: Entry, event: string, payload: unknown, ctx: unknown): unknown {
		try {
			const result = entry.handler(payload, ctx);
			if (!(result instanceof Promise)) return result;
			return result.catch((error) => {
				this.report(entry.path, event, error);
				return undefined;
			});
		} catch (error) {
			this.report(entry.path, event, error);
			return undefined;
		}
	}

	/** observe: results ignored. */
	async emit(event: string, payload: Record<string, unknown>): Promise<void> {
		const entries = this.snapshot(event);
		if (entries.length === 0) return;
		const full = { type: event, ...payload };
		const ctx = this.context();
		for (const e of entries) {
			const pending = this.call(e, event, full, ctx);
			if (pending instanceof Promise) await pending;
		}
	}

	/**
	 * chain: each handler sees the previous result. `apply` folds a handler's result into the
	 * payload and returns the next payload (or undefined to keep it).
	 */
	async chain<P extends Record<string, unknown>>(event: string, payload: P, apply: (payload: P, result: any, path: string) => P | undefined): Promise<P> {
		const entries = this.snapshot(event);
		if (entries.length === 0) return payload;
		let current = { type: event, ...payload } as P;
		const ctx = this.context();
		for (const e of entries) {
			const result = await this.call(e, event, current, ctx);
			if (result === undefined || result === null) continue;
			try {
				current = apply(current, result, e.path) ?? current;
			} catch (error) {
				this.report(e.path, event, error);
			}
		}
		return current;
	}

	/**
	 * first decision wins: `decide` returns "stop" to end the dispatch with this result. It may
	 * update the payload the next handler sees (input transforms chain). With `rethrow`, a
	 * throwing handler ends the dispatch by throwing (tool_call, user_bash).
	 */
	async first<R>(
		event: string,
		payload: Record<string, unknown>,
		decide: (result: any, payload: Record<string, unknown>) => "stop" | "keep" | "ignore",
		options: { rethrow?: boolean } = {},
	): Promise<R | undefined> {
		const entries = this.snapshot(event);
		if (entries.length === 0) return undefined;
		const full = { type: event, ...payload };
		const ctx = this.context();
		let kept: R | undefined;
		for (const e of entries) {
			let result: unknown;
			if (options.rethrow) {
				try {
					result = await e.handler(full, ctx);
				} catch (error) {
					this.report(e.path, event, error);
					throw error;
				}
			} else {
				result = await this.call(e, event, full, ctx);
			}
			if (result === undefined || result === null) continue;
			const verdict = decide(result, full);
			if (verdict === "stop") return result as R;
			if (verdict === "keep") kept = result as R;
		}
		return kept;
	}

	/**
	 * aggregate: every handler's result, in order (handlers that returned nothing are skipped).
	 * `afterEach` runs after every handler, returned something or not (handlers may change the payload in place).
	 */
	async collect<R>(
		event: string,
		payload: Record<string, unknown>,
		onResult?: (result: R, path: string, payload: Record<string, unknown>) => void,
		afterEach?: (payload: Record<string, unknown>) => void,
	): Promise<{ path: string; result: R }[]> {
		const entries = this.snapshot(event);
		if (entries.length === 0) return [];
		const full: Record<string, unknown> = { type: event, ...payload };
		const ctx = this.context();
		const out: { path: string; result: R }[] = [];
		for (const e of entries) {
			const result = (await this.call(e, event, full, ctx)) as R | undefined;
			try {
				if (result !== undefined && result !== null) {
					out.push({ path: e.path, result });
					onResult?.(result, e.path, full);
				}
				afterEach?.(full);
			} catch (error) {
				this.report(e.path, event, error);
			}
		}
		return out;
	}

	/** The handler entries for an event, for dispatchers with their own loop (boundary events). */
	entries(event: string): { path: string; handler: EventHandler }[] {
		return this.snapshot(event);
	}

	/**
	 * The context handlers get. Built once, on the first dispatch that has handlers: it holds no
	 * per-dispatch state (every member reads the live session and checks staleness itself), and a
	 * runner lives exactly as long as its runtime.
	 */
	context(): unknown {
		return (this.ctx ??= this.createContext());
	}
}
