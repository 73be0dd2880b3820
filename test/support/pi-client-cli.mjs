// The `cliPath` pi's RpcClient runs (`node <this> --mode rpc …`): our compiled binary with the same
// argv and the same stdin, stdout and stderr. Signals the client sends go on to the binary; its exit
// code is this process's. AGENT_PIDFILE, when set, receives the binary's pid (tests check it is gone).
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";

const binary = process.env.AGENT_BINARY;
if (!binary) {
	process.stderr.write("pi-client-cli.mjs: AGENT_BINARY is not set\n");
	process.exit(2);
}
const child = spawn(binary, process.argv.slice(2), { stdio: "inherit" });
if (process.env.AGENT_PIDFILE) writeFileSync(process.env.AGENT_PIDFILE, String(child.pid));
for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal === "SIGTERM" ? 143 : signal === "SIGHUP" ? 129 : 130)));
