// Where API keys come from: `--api-key`, auth.json, a provider's configured `apiKey` (a literal,
// an env var name, `$ENV` or `!command`), or the built-in env var. Commands run once per process.

/** How a configured value names its key. */
export type KeySpec = { kind: "literal"; value: string } | { kind: "env"; name: string } | { kind: "command"; command: string };

// Names like MY_API_KEY are environment variables; real keys never look like that.
const ENV_NAME = /^[A-Z_][A-Z0-9_]*$/;

export function parseKeySpec(value: string): KeySpec {
	if (value.startsWith("!")) return { kind: "command", command: value.slice(1).trim() };
	const dollar = /^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?$/.exec(value);
	if (dollar) return { kind: "env", name: dollar[1]! };
	if (ENV_NAME.test(value)) return { kind: "env", name: value };
	return { kind: "literal", value };
}

/** Whether the spec can produce a key without running anything. A command counts as configured. */
export function isSpecConfigured(spec: KeySpec, env: Record<string, string | undefined>): boolean {
	if (spec.kind === "env") return Boolean(env[spec.name]);
	if (spec.kind === "literal") return spec.value.length > 0;
	return spec.command.length > 0;
}

export class KeyCommandError extends Error {
	constructor(message: string) {
		super(message);
		this.name = "KeyCommandError";
	}
}

const commandResults = new Map<string, Promise<string>>();

/** The key a spec yields, or undefined for an unset env var. A failing command throws KeyCommandError. */
export async function resolveKeySpec(spec: KeySpec, env: Record<string, string | undefined>, label: string): Promise<string | undefined> {
	if (spec.kind === "literal") return spec.value;
	if (spec.kind === "env") return env[spec.name] || undefined;
	let pending = commandResults.get(spec.command);
	if (!pending) {
		pending = runKeyCommand(spec.command, label);
		commandResults.set(spec.command, pending);
		// A failure is not cached: the user may fix the command and retry within the session.
		pending.catch(() => commandResults.delete(spec.command));
	}
	return pending;
}

/** Header values: `$ENV` and `!command` forms resolve; a bare name is an env var if one is set, else literal. */
export async function resolveHeaderValue(value: string, env: Record<string, string | undefined>, label: string): Promise<string> {
	const spec = parseKeySpec(value);
	if (spec.kind === "env") return env[spec.name] ?? (value.startsWith("$") ? "" : value);
	return (await resolveKeySpec(spec, env, label)) ?? "";
}

const COMMAND_TIMEOUT_MS = 30_000;

async function runKeyCommand(command: string, label: string): Promise<string> {
	const shell = process.platform === "win32" ? ["cmd", "/c", command] : ["sh", "-c", command];
	let proc: ReturnType<typeof Bun.spawn>;
	try {
		proc = Bun.spawn(shell, { stdin: "ignore", stdout: "pipe", stderr: "pipe", timeout: COMMAND_TIMEOUT_MS });
	} catch (error) {
		throw new KeyCommandError(`The apiKey command for ${label} could not start: ${(error as Error).message}`);
	}
	const [stdout, stderr, code] = await Promise.all([
		new Response(proc.stdout as ReadableStream).text(),
		new Response(proc.stderr as ReadableStream).text(),
		proc.exited,
	]);
	if (code !== 0) {
		const said = stderr.trim().split("\n")[0];
		throw new KeyCommandError(`The apiKey command for ${label} failed (exit ${code})${said ? `: ${said}` : ""}`);
	}
	const key = stdout.trim();
	if (!key) throw new KeyCommandError(`The apiKey command for ${label} printed nothing`);
	return key;
}
