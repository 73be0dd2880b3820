// What a session run (print, json, rpc, the TUI) needs before its mode, behind one dynamic import:
// Bun then bundles these modules into a few chunks instead of one per import (~3 ms of -p, measured),
// while --help and the subcommands load none of them.
export { startExtensions } from "./extensions-startup.ts";
export { readFileArgs, readPipedStdin } from "./prompt-input.ts";
export { ModelRegistry } from "../core/providers/registry.ts";
export { createAgentSession } from "../core/sdk.ts";
export { createStderrUI } from "../core/extensions/ui-noop.ts";
export { runPrintMode } from "../modes/print.ts";
