// pi 1.6.0's own RpcClient (the npm package, unchanged) driving our compiled binary: it spawns
// `node <cliPath>`, and pi-client-cli.mjs runs dist/agent with the same argv and stdio.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { RpcClient } from "../../node_modules/@earendil-works/pi-coding-agent/dist/modes/rpc/rpc-client.js";
import { agentBinary, type TempWorld } from "./agent.ts";

export { RpcClient };

/** What the tests call on the client (pi's RpcClient public surface). */
export type PiRpcClient = InstanceType<typeof RpcClient> & Record<string, any>;

export interface PiClientHandle {
	client: PiRpcClient;
	/** Every event the client delivered, in order (subscribed before start). */
	events: any[];
	/** The binary's pid, for checking nothing is left running. */
	pid(): number;
	/**
	 * Answer an extension dialog. RpcClient has no method for it; pi's own example client
	 * (examples/rpc-extension-ui.ts) writes the answer to the agent's stdin, which this does
	 * through the client's child process.
	 */
	answer(response: Record<string, unknown>): void;
}

export async function startPiClient(world: TempWorld, model: string, args: string[] = []): Promise<PiClientHandle> {
	const pidFile = join(world.root, `agent-${Math.random().toString(36).slice(2)}.pid`);
	const client: PiRpcClient = new RpcClient({
		cliPath: join(import.meta.dir, "pi-client-cli.mjs"),
		cwd: world.cwd,
		model,
		args,
		// The client merges this over its own environment: everything that points at a home goes to the world's.
		env: world.environment({ AGENT_BINARY: agentBinary(), AGENT_PIDFILE: pidFile, AGENT_DIR: join(world.home, ".agent"), AGENT_SESSION_DIR: undefined }),
	});
	const events: any[] = [];
	client.onEvent((event: any) => events.push(event));
	await client.start();
	return {
		client,
		events,
		pid: () => (existsSync(pidFile) ? Number(readFileSync(pidFile, "utf8")) : 0),
		answer: (response) => (client as any).process.stdin.write(`${JSON.stringify({ type: "extension_ui_response", ...response })}\n`),
	};
}

/** Resolves with the first event (from now on) that matches. */
export function nextEvent(client: PiRpcClient, match: (event: any) => boolean): Promise<any> {
	return new Promise((resolve) => {
		const off = client.onEvent((event: any) => {
			if (!match(event)) return;
			off();
			resolve(event);
		});
	});
}
