// pi 1.6.0's example extensions (node_modules/@earendil-works/pi-coding-agent/examples/extensions)
// as print-mode scenarios against the mock LLM: what to type, what the model answers, what to
// set up and what to look at afterwards. The same scenario runs through our binary and through
// pi itself (scripts/pi-compat.ts), and the test compares ours with what pi did (recorded).
import type { Turn } from "../mock-llm.ts";

export interface Scenario {
	/** The example's file or folder name. */
	name: string;
	/** Path under examples/extensions of what `-e` loads ("" for none). */
	example: string;
	/** Flags after `--model mock/mock-model`, before `-p`. */
	args?: string[];
	/** The `-p` messages, sent in turn. */
	prompts: string[];
	/** What the model answers, request by request. */
	turns?: Turn[];
	/** Files written before the run, relative to the project; `~agent/x` is the agent's user dir. */
	write?: Record<string, string>;
	/** A bash script run in the project first (git init, …). */
	setup?: string;
	/** A bash script run in the project afterwards; its output is part of the observation. */
	probe?: string;
	/** Files read afterwards, relative to the project (`~/x`: the home folder, `~agent/x`: the agent's user dir). */
	files?: string[];
	env?: Record<string, string>;
	stdin?: string;
	/** Packages (with their dependencies) copied from our node_modules into the example's own node_modules. */
	nodeModules?: string[];
	/**
	 * A second extension of the test's own, loaded after the example (`-e`), e.g. to point the
	 * example's provider at the mock; it sees the mock's URLs in MOCK_OPENAI_URL / MOCK_ANTHROPIC_URL.
	 */
	companion?: string;
	/** Extra providers for models.json, in pi's format; "<mock>" / "<mock-anthropic>" are the mock's base URLs. */
	providers?: Record<string, unknown>;
	/** Default "mock/mock-model". */
	model?: string;
	/** The mock model's context window (default 100000). */
	contextWindow?: number;
	/**
	 * Built-in tools whose results are compared by whether they failed, not by their wording (each
	 * agent words its own tools' results: pi's read has no line numbers, its write says "Successfully").
	 */
	builtinResults?: string[];
	/**
	 * Compare the system prompt only by which of these strings it contains (for content each agent
	 * frames in its own prose, such as the skills list).
	 */
	systemProbe?: string[];
}

/** Examples left out, and why: they need a full-screen terminal, a network service or another OS. */
export const EXCLUDED: Record<string, string> = {
	"snake.ts": "full-screen game (ctx.ui.custom)",
	"space-invaders.ts": "full-screen game (ctx.ui.custom)",
	"tic-tac-toe.ts": "full-screen game (ctx.ui.custom)",
	"doom-overlay": "full-screen overlay (ctx.ui.custom) and a WebAssembly game",
	"overlay-test.ts": "full-screen overlays",
	"overlay-qa-tests.ts": "full-screen overlays",
	"custom-footer.ts": "replaces the TUI footer",
	"custom-header.ts": "replaces the TUI header",
	"modal-editor.ts": "replaces the TUI editor",
	"rainbow-editor.ts": "replaces the TUI editor",
	"border-status-editor.ts": "replaces the TUI editor and footer",
	"interactive-shell.ts": "runs `!cmd` in a full terminal",
	"summarize.ts": "calls a hosted model (network) inside ctx.ui.custom",
	"subagent": "spawns pi processes against hosted models",
	"gondolin": "needs the Gondolin micro-VM",
	"ssh.ts": "needs an SSH host",
	"github-issue-autocomplete.ts": "needs GitHub (gh CLI) and the TUI editor",
	"mac-system-theme.ts": "needs macOS",
};

const GIT_INIT = "git init -q -b main && git add -A && git commit -qm init --allow-empty";

export const SCENARIOS: Scenario[] = [
	{
		name: "auto-commit-on-exit.ts",
		example: "auto-commit-on-exit.ts",
		builtinResults: ["write"],
		setup: GIT_INIT,
		prompts: ["create notes.txt"],
		turns: [{ toolCalls: [{ name: "write", arguments: { path: "notes.txt", content: "note\n" }, id: "call_1" }] }, { text: "Created notes.txt with one line" }],
		probe: "git log --format=%s",
	},
	{
		name: "bash-spawn-hook.ts",
		example: "bash-spawn-hook.ts",
		write: { "~/.profile": "export FROM_PROFILE=yes\n" },
		prompts: ["show the env"],
		turns: [{ toolCalls: [{ name: "bash", arguments: { command: "echo $PI_SPAWN_HOOK $FROM_PROFILE" }, id: "call_1" }] }, { text: "done" }],
	},
	{
		name: "bookmark.ts",
		example: "bookmark.ts",
		prompts: ["hi", "/bookmark first", "/unbookmark"],
		turns: [{ text: "hello" }],
	},
	{
		name: "built-in-tool-renderer.ts",
		example: "built-in-tool-renderer.ts",
		builtinResults: ["read", "edit"],
		write: { "a.txt": "alpha\n" },
		prompts: ["read a.txt and edit it"],
		turns: [
			{ toolCalls: [{ name: "read", arguments: { path: "a.txt" }, id: "call_1" }] },
			{ toolCalls: [{ name: "edit", arguments: { path: "a.txt", edits: [{ oldText: "alpha", newText: "beta" }] }, id: "call_2" }] },
			{ text: "done" },
		],
		files: ["a.txt"],
	},
	{
		name: "claude-rules.ts",
		example: "claude-rules.ts",
		write: { ".claude/rules/testing.md": "# Testing\nRun the tests.\n", ".claude/rules/api/design.md": "# API\n" },
		prompts: ["hi"],
		turns: [{ text: "hello" }],
	},
	{
		name: "commands.ts",
		example: "commands.ts",
		prompts: ["/commands", "hi"],
		turns: [{ text: "hello" }],
	},
	{
		name: "confirm-destructive.ts",
		example: "confirm-destructive.ts",
		prompts: ["hi"],
		turns: [{ text: "hello" }],
	},
	{
		name: "custom-compaction.ts",
		example: "custom-compaction.ts",
		contextWindow: 20000,
		prompts: ["first", "second"],
		turns: [{ text: "one", usage: { input: 4000, output: 10 } }, { text: "The summary of the conversation." }, { text: "two" }],
	},
	{
		name: "debug-provider.ts",
		example: "debug-provider.ts",
		prompts: ["/debug-provider on", "hi"],
		turns: [{ text: "hello" }],
	},
	{
		name: "dirty-repo-guard.ts",
		example: "dirty-repo-guard.ts",
		setup: `${GIT_INIT} && echo x > dirty.txt`,
		prompts: ["hi"],
		turns: [{ text: "hello" }],
	},
	{
		name: "dynamic-resources",
		example: "dynamic-resources",
		systemProbe: ["dynamic-resources", "Example skill loaded from resources_discover", "<root>/ext/dynamic-resources/SKILL.md"],
		prompts: ["/dynamic"],
		turns: [{ text: "ok" }],
	},
	{
		name: "dynamic-tools.ts",
		example: "dynamic-tools.ts",
		prompts: ["echo it", "/add-echo-tool shout", "now shout"],
		turns: [
			{ toolCalls: [{ name: "echo_session", arguments: { message: "hi" }, id: "call_1" }] },
			{ text: "echoed" },
			{ toolCalls: [{ name: "shout", arguments: { message: "HEY" }, id: "call_2" }] },
			{ text: "shouted" },
		],
	},
	{
		name: "entry-renderer.ts",
		example: "entry-renderer.ts",
		prompts: ["/status-card all good", "hi"],
		turns: [{ text: "hello" }],
	},
	{
		name: "event-bus.ts",
		example: "event-bus.ts",
		prompts: ["/emit ping", "hi"],
		turns: [{ text: "hello" }],
	},
	{
		name: "file-trigger.ts",
		example: "file-trigger.ts",
		prompts: ["hi"],
		turns: [{ text: "hello" }],
	},
	{
		name: "git-checkpoint.ts",
		example: "git-checkpoint.ts",
		builtinResults: ["read"],
		setup: `echo one > f.txt && ${GIT_INIT} && echo two > f.txt`,
		prompts: ["look"],
		turns: [{ toolCalls: [{ name: "read", arguments: { path: "f.txt" }, id: "call_1" }] }, { text: "seen" }],
		probe: "git stash list | wc -l",
	},
	{
		name: "git-merge-and-resolve.ts",
		example: "git-merge-and-resolve.ts",
		// A clone whose upstream moved on with a change that conflicts with the local commit.
		setup: [
			"mkdir ../up && cd ../up && git init -q -b main && echo base > f.txt && git add f.txt && git commit -qm base",
			"cd ../project && git clone -q ../up . && echo local > f.txt && git commit -qam local",
			"cd ../up && echo upstream > f.txt && git commit -qam upstream",
		].join(" && "),
		prompts: ["carry on"],
		turns: [
			{ text: "working" },
			{ toolCalls: [{ name: "bash", arguments: { command: "echo resolved > f.txt && git add f.txt && git commit -qm merged && echo committed" }, id: "call_1" }] },
			{ text: "resolved" },
		],
		probe: "git status --porcelain",
	},
	{
		name: "handoff.ts",
		example: "handoff.ts",
		prompts: ["hi", "/handoff write the tests"],
		turns: [{ text: "hello" }],
	},
	{
		name: "hello.ts",
		example: "hello.ts",
		prompts: ["greet Ada"],
		turns: [{ toolCalls: [{ name: "hello", arguments: { name: "Ada" }, id: "call_1" }] }, { text: "greeted" }],
	},
	{
		name: "hidden-thinking-label.ts",
		example: "hidden-thinking-label.ts",
		prompts: ["/thinking-label musing", "hi"],
		turns: [{ text: "hello" }],
	},
	{
		name: "inline-bash.ts",
		example: "inline-bash.ts",
		prompts: ["the answer is !{echo 42} and !{printf ok}"],
		turns: [{ text: "noted" }],
	},
	{
		name: "input-transform-streaming.ts",
		example: "input-transform-streaming.ts",
		setup: `echo one > f.txt && ${GIT_INIT} && echo two >> f.txt`,
		prompts: ["review my changes", "hello"],
		turns: [{ text: "reviewed" }, { text: "hi" }],
	},
	{
		name: "input-transform.ts",
		example: "input-transform.ts",
		prompts: ["ping", "?quick What is TypeScript?"],
		turns: [{ text: "A typed JavaScript." }],
	},
	{
		name: "jev-router.ts",
		example: "jev-router.ts",
		builtinResults: ["write"],
		// The routed-to models, served by the mock under the provider the router asks for.
		providers: {
			"openai-codex": {
				baseUrl: "<mock>",
				api: "openai-completions",
				apiKey: "test-key",
				models: [{ id: "gpt-5.6-sol" }, { id: "gpt-5.6-terra" }, { id: "gpt-5.6-luna" }],
			},
		},
		model: "jev/auto",
		prompts: ["fix it"],
		turns: [{ toolCalls: [{ name: "write", arguments: { path: "x.txt", content: "x\n" }, id: "call_1" }] }, { text: "done" }],
	},
	{
		name: "message-renderer.ts",
		example: "message-renderer.ts",
		prompts: ["/status warn disk almost full", "hi"],
		turns: [{ text: "hello" }],
	},
	{
		name: "minimal-mode.ts",
		example: "minimal-mode.ts",
		builtinResults: ["ls", "read"],
		write: { "a.txt": "alpha\n" },
		args: ["--tools", "read,ls,find,grep"],
		prompts: ["look around"],
		turns: [
			{
				toolCalls: [
					{ name: "ls", arguments: {}, id: "call_1" },
					{ name: "read", arguments: { path: "a.txt" }, id: "call_2" },
				],
			},
			{ text: "seen" },
		],
	},
	{
		name: "model-status.ts",
		example: "model-status.ts",
		prompts: ["hi"],
		turns: [{ text: "hello" }],
	},
	{
		name: "notify.ts",
		example: "notify.ts",
		prompts: ["hi"],
		turns: [{ text: "hello" }],
	},
	{
		name: "permission-gate.ts",
		example: "permission-gate.ts",
		prompts: ["clean up"],
		turns: [{ toolCalls: [{ name: "bash", arguments: { command: "rm -rf build" }, id: "call_1" }] }, { text: "blocked" }],
	},
	{
		name: "pirate.ts",
		example: "pirate.ts",
		prompts: ["/pirate", "hi"],
		turns: [{ text: "Arrr" }],
	},
	{
		name: "plan-mode",
		example: "plan-mode",
		args: ["--plan"],
		prompts: ["make a plan"],
		turns: [
			{ toolCalls: [{ name: "write", arguments: { path: "x.txt", content: "x" }, id: "call_1" }] },
			{ toolCalls: [{ name: "bash", arguments: { command: "rm -f x.txt" }, id: "call_2" }] },
			{ text: "Plan:\n1. Read the code\n2. Change it" },
		],
	},
	{
		name: "preset.ts",
		example: "preset.ts",
		write: { "~agent/presets.json": JSON.stringify({ review: { tools: ["read", "grep"], instructions: "Review only, never edit." } }) },
		args: ["--preset", "review"],
		prompts: ["check"],
		turns: [{ text: "looks fine" }],
	},
	{
		name: "project-trust.ts",
		example: "project-trust.ts",
		write: { "AGENTS.md": "Be brief.\n" },
		prompts: ["hi"],
		turns: [{ text: "hello" }],
	},
	{
		name: "prompt-customizer.ts",
		example: "prompt-customizer.ts",
		prompts: ["hi"],
		turns: [{ text: "hello" }],
	},
	{
		name: "protected-paths.ts",
		example: "protected-paths.ts",
		builtinResults: ["write"],
		prompts: ["set the key"],
		turns: [
			{ toolCalls: [{ name: "write", arguments: { path: ".env", content: "KEY=1\n" }, id: "call_1" }] },
			{ toolCalls: [{ name: "write", arguments: { path: "ok.txt", content: "ok\n" }, id: "call_2" }] },
			{ text: "done" },
		],
		files: [".env", "ok.txt"],
	},
	{
		name: "provider-payload.ts",
		example: "provider-payload.ts",
		setup: "mkdir -p .pi .agent",
		prompts: ["hi"],
		turns: [{ text: "hello" }],
		probe: `cat .pi/provider-payload.log .agent/provider-payload.log 2>/dev/null | grep -o '"model": "mock-model"\\|\\[200\\]' | sort | uniq -c`,
	},
	{
		name: "qna.ts",
		example: "qna.ts",
		prompts: ["hi", "/qna"],
		turns: [{ text: "Which database?" }],
	},
	{
		name: "question.ts",
		example: "question.ts",
		prompts: ["ask me"],
		turns: [{ toolCalls: [{ name: "question", arguments: { question: "Which?", options: [{ label: "A" }, { label: "B" }] }, id: "call_1" }] }, { text: "no answer" }],
	},
	{
		name: "questionnaire.ts",
		example: "questionnaire.ts",
		prompts: ["survey me"],
		turns: [
			{ toolCalls: [{ name: "questionnaire", arguments: { questions: [{ id: "db", prompt: "Which database?", options: [{ value: "pg", label: "Postgres" }] }] }, id: "call_1" }] },
			{ text: "no answer" },
		],
	},
	{
		name: "reload-runtime.ts",
		example: "reload-runtime.ts",
		prompts: ["reload yourself"],
		turns: [{ toolCalls: [{ name: "reload_runtime", arguments: {}, id: "call_1" }] }],
	},
	{
		name: "rpc-demo.ts",
		example: "rpc-demo.ts",
		prompts: ["/rpc-input", "clean"],
		turns: [{ toolCalls: [{ name: "bash", arguments: { command: "sudo rm -rf /tmp/x" }, id: "call_1" }] }, { text: "blocked" }],
	},
	{
		name: "send-user-message.ts",
		example: "send-user-message.ts",
		prompts: ["/ask What is 2+2?", "/askwith tell me more"],
		turns: [{ text: "4" }, { text: "more" }],
	},
	{
		name: "session-name.ts",
		example: "session-name.ts",
		prompts: ["/session-name refactor", "hi"],
		turns: [{ text: "hello" }],
	},
	{
		name: "shutdown-command.ts",
		example: "shutdown-command.ts",
		prompts: ["deploy it", "never sent"],
		turns: [{ toolCalls: [{ name: "deploy_and_exit", arguments: { environment: "staging" }, id: "call_1" }] }, { text: "deployed" }, { text: "second prompt" }],
	},
	{
		name: "status-line.ts",
		example: "status-line.ts",
		prompts: ["hi"],
		turns: [{ text: "hello" }],
	},
	{
		name: "structured-output.ts",
		example: "structured-output.ts",
		prompts: ["summarise"],
		turns: [{ toolCalls: [{ name: "structured_output", arguments: { headline: "H", summary: "S", actionItems: ["a", "b"] }, id: "call_1" }] }],
	},
	{
		name: "system-prompt-header.ts",
		example: "system-prompt-header.ts",
		prompts: ["hi"],
		turns: [{ text: "hello" }],
	},
	{
		name: "timed-confirm.ts",
		example: "timed-confirm.ts",
		prompts: ["/timed", "/timed-select", "hi"],
		turns: [{ text: "hello" }],
	},
	{
		name: "titlebar-spinner.ts",
		example: "titlebar-spinner.ts",
		prompts: ["hi"],
		turns: [{ text: "hello" }],
	},
	{
		name: "todo.ts",
		example: "todo.ts",
		prompts: ["plan", "/todos"],
		turns: [
			{ toolCalls: [{ name: "todo", arguments: { action: "add", text: "write tests" }, id: "call_1" }] },
			{ toolCalls: [{ name: "todo", arguments: { action: "toggle", id: 1 }, id: "call_2" }] },
			{ toolCalls: [{ name: "todo", arguments: { action: "list" }, id: "call_3" }] },
			{ text: "planned" },
		],
	},
	{
		name: "tool-override.ts",
		example: "tool-override.ts",
		write: { "a.txt": "alpha\nbeta\n", ".env": "SECRET=1\n" },
		prompts: ["read files", "/read-log"],
		turns: [
			{
				toolCalls: [
					{ name: "read", arguments: { path: "a.txt", offset: 2 }, id: "call_1" },
					{ name: "read", arguments: { path: ".env" }, id: "call_2" },
				],
			},
			{ text: "read" },
		],
		probe: "sed -E 's/^\\[[^]]*\\]/[time]/' ~/.pi/agent/read-access.log ~/.agent/read-access.log 2>/dev/null",
	},
	{
		name: "tools.ts",
		example: "tools.ts",
		prompts: ["/tools", "hi"],
		turns: [{ text: "hello" }],
	},
	{
		name: "trigger-compact.ts",
		example: "trigger-compact.ts",
		// Keep only the last turn, so a three-turn session has something to summarise in both agents.
		write: { "~agent/settings.json": JSON.stringify({ compaction: { keepRecentTokens: 1 } }) },
		prompts: ["one", "two", "three", "/trigger-compact keep names"],
		turns: [{ text: "1" }, { text: "2" }, { text: "3" }, { text: "Summary: counted." }],
	},
	{
		name: "truncated-tool.ts",
		example: "truncated-tool.ts",
		write: { "src/a.ts": "const needle = 1;\n", "src/b.ts": "// needle here\n" },
		prompts: ["search"],
		turns: [{ toolCalls: [{ name: "rg", arguments: { pattern: "needle", path: "src" }, id: "call_1" }] }, { text: "found" }],
	},
	{
		name: "widget-placement.ts",
		example: "widget-placement.ts",
		prompts: ["hi"],
		turns: [{ text: "hello" }],
	},
	{
		name: "working-indicator.ts",
		example: "working-indicator.ts",
		prompts: ["/working-indicator dot", "hi"],
		turns: [{ text: "hello" }],
	},
	{
		name: "working-message-test.ts",
		example: "working-message-test.ts",
		prompts: ["hi"],
		turns: [{ text: "hello" }],
	},
	{
		name: "with-deps",
		example: "with-deps",
		nodeModules: ["ms"],
		prompts: ["how long is 2 days"],
		turns: [{ toolCalls: [{ name: "parse_duration", arguments: { duration: "2 days" }, id: "call_1" }] }, { text: "172800000" }],
	},
	{
		name: "custom-provider-anthropic",
		example: "custom-provider-anthropic",
		nodeModules: ["@anthropic-ai/sdk"],
		// The extension's provider, pointed at the mock by re-registering only its endpoint.
		companion: `export default (pi) => pi.registerProvider("custom-anthropic", { baseUrl: process.env.MOCK_ANTHROPIC_URL });`,
		env: { CUSTOM_ANTHROPIC_API_KEY: "test-key" },
		model: "custom-anthropic/claude-sonnet-4-5",
		prompts: ["hi"],
		turns: [{ text: "hello from claude" }],
	},
	{
		name: "custom-provider-gitlab-duo",
		example: "custom-provider-gitlab-duo",
		model: "gitlab-duo/claude-sonnet-4-6",
		prompts: ["hi"],
	},
];
