// `agent types [dir]`: the declarations of every module the binary serves to extensions, plus a
// tsconfig.json mapping them, so an editor or `tsc` checks an extension with no node_modules.
// `agent new extension <name>`: a typed, commented extension to start from, with those types.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { APP_NAME, PACKAGE_NAME } from "../config.ts";
import { UserError } from "../core/errors.ts";
import { writeStdout } from "../stdio.ts";

/** The folder `agent types` writes; a dot folder, so extension discovery never looks inside. */
export const TYPES_DIR = `.${APP_NAME}-types`;
/** Marks a tsconfig.json we wrote, so `agent types` may refresh it; any other one is left alone. */
const MARKER = `Written by "${APP_NAME} types"`;

async function bundle() {
	const { readTypesBundle } = await import("./types-bundle.ts");
	try {
		return await readTypesBundle();
	} catch (error) {
		throw new UserError(`The type declarations are missing from this build (${error instanceof Error ? error.message : String(error)}).`, ['Build the binary with "npm run build"; it generates them.']);
	}
}

/** `compilerOptions` that make the written declarations apply to the folder's `.ts` files. */
function compilerOptions(paths: Record<string, string>, types: string[]) {
	return {
		target: "ES2022",
		module: "ESNext",
		moduleResolution: "bundler",
		lib: ["ESNext"],
		strict: true,
		noEmit: true,
		allowImportingTsExtensions: true,
		skipLibCheck: true,
		types,
		typeRoots: [`./${TYPES_DIR}/node_modules/@types`],
		paths: Object.fromEntries(Object.entries(paths).map(([specifier, file]) => [specifier, [`./${TYPES_DIR}/${file}`]])),
	};
}

export interface WrittenTypes {
	typesDir: string;
	files: number;
	specifiers: string[];
	/** The tsconfig.json written, or undefined when one of the user's was there (then `options` is what to add). */
	tsconfig?: string;
	options: ReturnType<typeof compilerOptions>;
}

/** Write the declarations into `<dir>/.agent-types/` and a tsconfig.json unless the folder has its own. */
export async function writeTypes(dir: string): Promise<WrittenTypes> {
	const { files, paths, types } = await bundle();
	const typesDir = join(dir, TYPES_DIR);
	rmSync(typesDir, { recursive: true, force: true });
	for (const [path, text] of Object.entries(files)) {
		const target = join(typesDir, path);
		mkdirSync(dirname(target), { recursive: true });
		writeFileSync(target, text);
	}
	writeFileSync(join(typesDir, ".gitignore"), "*\n");
	const options = compilerOptions(paths, types);
	const tsconfigPath = join(dir, "tsconfig.json");
	const ours = !existsSync(tsconfigPath) || readFileSync(tsconfigPath, "utf8").includes(MARKER);
	if (ours) {
		const tsconfig = { $comment: `${MARKER}: types for ${PACKAGE_NAME} and the modules ${APP_NAME} serves to extensions.`, compilerOptions: options, include: ["**/*.ts"], exclude: [TYPES_DIR, "node_modules"] };
		writeFileSync(tsconfigPath, `${JSON.stringify(tsconfig, null, 2)}\n`);
	}
	return { typesDir, files: Object.keys(files).length, specifiers: Object.keys(paths), ...(ours ? { tsconfig: tsconfigPath } : {}), options };
}

export async function runTypesCommand(dir: string | undefined, print: boolean, cwd = process.cwd()): Promise<number> {
	const target = resolve(cwd, dir ?? ".");
	mkdirSync(target, { recursive: true });
	const written = await writeTypes(target);
	const shown = (p: string) => relative(cwd, p) || ".";
	// One name per package: `typebox` covers `typebox/compile`, `@earendil-works/pi-ai` its subpaths.
	const names = [...new Set(written.specifiers.map((s) => s.split("/").slice(0, s.startsWith("@") ? 2 : 1).join("/")))];
	const lines = [`Wrote declarations for ${names.join(", ")} (${written.files} files) to ${shown(written.typesDir)}/.`];
	if (written.tsconfig && !print) lines.push(`Wrote ${shown(written.tsconfig)}: editors now type-check the .ts files here, and so does "tsc --noEmit -p ${shown(target)}".`);
	else {
		lines.push(written.tsconfig ? "Its compilerOptions:" : `${shown(join(target, "tsconfig.json"))} is your own, so it was left as it is. Add these compilerOptions to it:`);
		lines.push(JSON.stringify({ compilerOptions: written.options }, null, 2));
	}
	writeStdout(`${lines.join("\n")}\n`);
	return 0;
}

// ---- agent new extension <name> ----

/** A tool name from the extension's name: letters, digits and `_`. */
const toolPrefix = (name: string) => name.replace(/[^A-Za-z0-9]+/g, "_").replace(/^_+|_+$/g, "").toLowerCase();

/** The scaffolded extension: one tool, one command, one event handler, each commented. */
export function extensionTemplate(name: string): string {
	const tool = `${toolPrefix(name)}_word_count`;
	return `// ${name}: an extension for ${APP_NAME}.
// Try it for one run:   ${APP_NAME} -e ./${name} -p /${name}
// Keep it:              ${APP_NAME} install ./${name}   (or copy this folder into ~/.${APP_NAME}/extensions/)
// Types:                "${APP_NAME} types" wrote .${APP_NAME}-types/ and tsconfig.json; run it again after updating ${APP_NAME}.
import type { ExtensionAPI } from "${PACKAGE_NAME}";
import { Type } from "typebox";

// The factory runs once at start-up. It may only register things (tools, commands, handlers,
// flags, providers); actions such as pi.sendUserMessage belong inside handlers.
export default function (pi: ExtensionAPI) {
	// A tool the model can call. \`parameters\` is a typebox schema: the arguments are validated
	// against it before \`execute\` runs, and \`params\` is typed from it.
	pi.registerTool({
		name: "${tool}",
		label: "Word count",
		description: "Count the words in a text",
		parameters: Type.Object({ text: Type.String({ description: "The text to count" }) }),
		async execute(_toolCallId, params, _signal, _onUpdate, _ctx) {
			const words = params.text.split(/\\s+/).filter(Boolean).length;
			// \`content\` goes back to the model; \`details\` is kept in the session for renderers.
			return { content: [{ type: "text", text: \`\${words} words\` }], details: { words } };
		},
	});

	// A slash command: /${name} in a session, or \`${APP_NAME} -p /${name}\` from a script (no model needed).
	pi.registerCommand("${name}", {
		description: "Say hello from ${name}",
		handler: async (args, ctx) => {
			// In print mode notify writes "Info: …" to stderr; interactively it shows a line.
			ctx.ui.notify(\`Hello from ${name}\${args ? \`, \${args}\` : ""}!\`, "info");
		},
	});

	// An event handler: runs before every tool call and may block it with a reason the model sees.
	pi.on("tool_call", async (event) => {
		if (event.toolName === "bash" && String(event.input.command).includes("rm -rf /")) {
			return { block: true, reason: "${name} does not allow rm -rf /" };
		}
		return undefined;
	});
}
`;
}

export async function runNewExtensionCommand(target: string, cwd = process.cwd()): Promise<number> {
	const dir = resolve(cwd, target);
	const name = basename(dir);
	if (!/^[a-z0-9][a-z0-9-]*$/.test(name)) {
		throw new UserError(`"${name}" cannot name an extension: use lower-case letters, digits and "-" (it becomes the /${name} command).`);
	}
	if (existsSync(dir) && readdirSync(dir).length > 0) throw new UserError(`${dir} already exists and is not empty; pick another name or folder.`);
	mkdirSync(dir, { recursive: true });
	writeFileSync(join(dir, "index.ts"), extensionTemplate(name));
	const manifest = {
		name,
		version: "0.1.0",
		type: "module",
		description: `An extension for ${APP_NAME}`,
		keywords: [`${APP_NAME}-package`, "pi-package"],
		agent: { extensions: ["./index.ts"] },
		peerDependencies: { [PACKAGE_NAME]: "*", typebox: "*" },
	};
	writeFileSync(join(dir, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
	await writeTypes(dir);
	const shown = relative(cwd, dir) || ".";
	writeStdout(
		[
			`Created ${shown}/: index.ts (a tool, a command and an event handler), package.json, tsconfig.json and ${TYPES_DIR}/.`,
			`Try it:  ${APP_NAME} -e ./${shown} -p /${name}`,
			`Keep it: ${APP_NAME} install ./${shown}`,
		].join("\n") + "\n",
	);
	return 0;
}
