// Text to the system clipboard: the platform's own tool when there is one (pbcopy, clip.exe,
// wl-copy, xclip, xsel), otherwise OSC 52, which the terminal (or tmux, over SSH too) turns into
// a clipboard write. Returns how it was copied, for the confirmation line.

interface Tool {
	argv: string[];
	/** Whether this platform or session can use it. */
	usable(env: NodeJS.ProcessEnv): boolean;
}

const TOOLS: Tool[] = [
	{ argv: ["pbcopy"], usable: () => process.platform === "darwin" },
	{ argv: ["clip.exe"], usable: (env) => process.platform === "win32" || !!env.WSL_DISTRO_NAME },
	{ argv: ["wl-copy"], usable: (env) => !!env.WAYLAND_DISPLAY },
	{ argv: ["xclip", "-selection", "clipboard"], usable: (env) => !!env.DISPLAY },
	{ argv: ["xsel", "--clipboard", "--input"], usable: (env) => !!env.DISPLAY },
];

/** A native clipboard program for this session, or undefined. */
export function nativeClipboard(env: NodeJS.ProcessEnv = process.env): string[] | undefined {
	for (const tool of TOOLS) if (tool.usable(env) && Bun.which(tool.argv[0]!, { PATH: env.PATH })) return tool.argv;
	return undefined;
}

/** The OSC 52 sequence that asks the terminal to put `text` on the clipboard. */
export function osc52(text: string): string {
	return `\x1b]52;c;${Buffer.from(text, "utf8").toString("base64")}\x07`;
}

async function runTool(argv: string[], text: string): Promise<boolean> {
	try {
		// xclip and wl-copy stay behind to serve the selection: their output is not waited on.
		const proc = Bun.spawn(argv, { stdin: "pipe", stdout: "ignore", stderr: "ignore" });
		proc.stdin.write(text);
		await proc.stdin.end();
		const code = await Promise.race([proc.exited, Bun.sleep(3000).then(() => -1)]);
		return code === 0;
	} catch {
		return false;
	}
}

/**
 * Copy `text`; `write` sends bytes to the terminal (for OSC 52). Resolves with the tool's name or
 * "OSC 52". A session over SSH also gets OSC 52, so the clipboard of the machine in front of the
 * person is set too.
 */
export async function copyToClipboard(text: string, write: (data: string) => void, env: NodeJS.ProcessEnv = process.env): Promise<string> {
	const tool = nativeClipboard(env);
	const remote = !!(env.SSH_CONNECTION || env.SSH_TTY);
	if (tool && (await runTool(tool, text))) {
		if (remote) write(osc52(text));
		return tool[0]!;
	}
	write(osc52(text));
	return "OSC 52";
}
