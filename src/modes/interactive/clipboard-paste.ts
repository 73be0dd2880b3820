// ctrl+v (app.clipboard.pasteImage), as pi 1.6 does it: an image on the clipboard is saved to a
// temporary PNG (or whatever type it is) and its path goes into the input at the cursor, so the
// model reads it with the read tool; with no image, the clipboard's text is pasted instead.
// The platform's programs do the reading: wl-paste (Wayland), xclip (X11), pngpaste/osascript (macOS).
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { APP_NAME, tmpDir } from "../../config.ts";

export type ClipboardContent = { kind: "image"; bytes: Uint8Array; mimeType: string } | { kind: "text"; text: string } | { kind: "empty" };

const IMAGE_TYPES = ["image/png", "image/jpeg", "image/webp", "image/gif"];
const EXTENSIONS: Record<string, string> = { "image/png": "png", "image/jpeg": "jpg", "image/webp": "webp", "image/gif": "gif" };

async function run(argv: string[], env: NodeJS.ProcessEnv): Promise<Uint8Array | undefined> {
	if (!Bun.which(argv[0]!, { PATH: env.PATH })) return undefined;
	try {
		const proc = Bun.spawn(argv, { stdin: "ignore", stdout: "pipe", stderr: "ignore", env });
		const timer = setTimeout(() => proc.kill(), 3000);
		const [bytes, code] = await Promise.all([new Response(proc.stdout).bytes(), proc.exited]);
		clearTimeout(timer);
		return code === 0 && bytes.length > 0 ? bytes : undefined;
	} catch {
		return undefined;
	}
}

const text = (bytes: Uint8Array | undefined) => (bytes ? new TextDecoder().decode(bytes) : undefined);

/** Which of the clipboard's types is an image we can send, from a list of MIME types (one a line). */
function imageType(types: string | undefined): string | undefined {
	const offered = (types ?? "").split("\n").map((t) => t.trim());
	return IMAGE_TYPES.find((t) => offered.includes(t));
}

async function readLinux(env: NodeJS.ProcessEnv): Promise<ClipboardContent | undefined> {
	if (env.WAYLAND_DISPLAY && Bun.which("wl-paste", { PATH: env.PATH })) {
		const type = imageType(text(await run(["wl-paste", "--list-types"], env)));
		const bytes = type ? await run(["wl-paste", "--no-newline", "--type", type], env) : undefined;
		if (type && bytes) return { kind: "image", bytes, mimeType: type };
		const pasted = text(await run(["wl-paste", "--no-newline"], env));
		return pasted ? { kind: "text", text: pasted } : { kind: "empty" };
	}
	if (env.DISPLAY && Bun.which("xclip", { PATH: env.PATH })) {
		const type = imageType(text(await run(["xclip", "-selection", "clipboard", "-t", "TARGETS", "-o"], env)));
		const bytes = type ? await run(["xclip", "-selection", "clipboard", "-t", type, "-o"], env) : undefined;
		if (type && bytes) return { kind: "image", bytes, mimeType: type };
		const pasted = text(await run(["xclip", "-selection", "clipboard", "-o"], env));
		return pasted ? { kind: "text", text: pasted } : { kind: "empty" };
	}
	return undefined;
}

async function readMac(env: NodeJS.ProcessEnv): Promise<ClipboardContent | undefined> {
	const png = (await run(["pngpaste", "-"], env)) ?? (await macPng(env));
	if (png) return { kind: "image", bytes: png, mimeType: "image/png" };
	const pasted = text(await run(["pbpaste"], env));
	return pasted ? { kind: "text", text: pasted } : { kind: "empty" };
}

/** Without pngpaste: AppleScript writes the clipboard's PNG data to a file. */
async function macPng(env: NodeJS.ProcessEnv): Promise<Uint8Array | undefined> {
	const file = join(tmpDir(), `${APP_NAME}-clipboard-${crypto.randomUUID()}.png`);
	const script = `set f to open for access POSIX file "${file}" with write permission\ntry\nwrite (the clipboard as «class PNGf») to f\nend try\nclose access f`;
	await run(["osascript", "-e", script], env);
	try {
		const bytes = readFileSync(file);
		return bytes.length > 0 ? bytes : undefined;
	} catch {
		return undefined;
	} finally {
		rmSync(file, { force: true });
	}
}

/** What the clipboard holds; undefined when this machine has no program to read it with. */
export async function readClipboard(env: NodeJS.ProcessEnv = process.env): Promise<ClipboardContent | undefined> {
	if (process.platform === "darwin") return readMac(env);
	if (process.platform === "linux" || process.platform === "freebsd") return readLinux(env);
	return undefined;
}

/** Save a pasted image where the model's read tool can open it; returns the path. */
export function saveClipboardImage(bytes: Uint8Array, mimeType: string): string {
	const file = join(tmpDir(), `${APP_NAME}-clipboard-${crypto.randomUUID()}.${EXTENSIONS[mimeType] ?? "png"}`);
	writeFileSync(file, bytes, { mode: 0o600 });
	return file;
}
