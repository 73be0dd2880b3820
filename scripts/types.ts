// Declarations for everything the binary serves to extensions, for `agent types` (embedded by
// build.ts). The specifiers come from the virtual-module table itself; our modules go through tsc's
// declaration emit, packages ship their own .d.ts files. The bundle is cached under a hash of
// everything it is made from, so a build whose sources did not change runs no tsc at all.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const repo = resolve(import.meta.dir, "..");
const TABLE = join(repo, "virtual-modules/index.ts");
/** Where the bundle is written; build.ts embeds it. */
export const TYPES_BUNDLE = join(repo, "dist/agent-types.json.gz");
/** Beside the bundle: the hash of the inputs it was made from, and its file count. */
export const TYPES_KEY = join(repo, "dist/agent-types.key.json");

export interface TypesBundle {
	/** Paths relative to the types folder → file text. */
	files: Record<string, string>;
	/** tsconfig `paths`: specifier → file relative to the types folder. */
	paths: Record<string, string>;
	/** Packages under `node_modules/@types` to list in `types` (Node's, for `node:` imports). */
	types: string[];
}

/**
 * Specifier → what its loader requires (a file relative to virtual-modules/, or a package), read
 * from the table itself: each loader is a literal `() => require("…")`, whose source says which.
 */
export async function readModuleTable(): Promise<Map<string, string>> {
	const { virtualModules } = await import(TABLE);
	const table = new Map<string, string>();
	for (const [specifier, loader] of Object.entries(virtualModules() as Record<string, () => unknown>)) {
		const target = /require\((["'])([^"']+)\1\)/.exec(String(loader))?.[2];
		if (!target) throw new Error(`types: the loader of "${specifier}" in ${TABLE} is not a literal require(): ${String(loader)}`);
		table.set(specifier, target);
	}
	return table;
}

/** tsc's declaration emit of our modules into dist/types-build (incremental). */
async function emitDeclarations(entries: string[]): Promise<string> {
	const out = join(repo, "dist/types-build");
	mkdirSync(out, { recursive: true });
	const config = {
		extends: "../../tsconfig.json",
		compilerOptions: { noEmit: false, declaration: true, emitDeclarationOnly: true, outDir: ".", rootDir: "../..", incremental: true, tsBuildInfoFile: "./.tsbuildinfo", skipLibCheck: true },
		include: [],
		files: [...entries.map((e) => relative(out, e)), "../../src/core/tools/text-modules.d.ts"],
	};
	writeFileSync(join(out, "tsconfig.json"), JSON.stringify(config, null, 2));
	const tsc = Bun.spawn([join(repo, "node_modules/.bin/tsc"), "-p", join(out, "tsconfig.json")], { cwd: repo, stdout: "pipe", stderr: "pipe" });
	await tsc.exited; // Type errors are `npm run typecheck`'s to report; the emit happens regardless.
	for (const e of entries) {
		const emitted = join(out, relative(repo, e).replace(/\.ts$/, ".d.ts"));
		if (!existsSync(emitted)) throw new Error(`types: tsc emitted no ${emitted}: ${await new Response(tsc.stdout).text()}`);
	}
	return out;
}

function walk(dir: string, keep: (file: string) => boolean, out: string[] = []): string[] {
	for (const name of readdirSync(dir)) {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) {
			if (name !== "node_modules") walk(path, keep, out);
		} else if (keep(path)) out.push(path);
	}
	return out;
}

const isDeclaration = (f: string) => /\.d\.(ts|mts|cts)$/.test(f);
const packageOf = (specifier: string) => specifier.split("/").slice(0, specifier.startsWith("@") ? 2 : 1).join("/");

/** The declaration file a package's (sub)path resolves to, from its package.json. */
function packageTypesEntry(pkgDir: string, subpath: string): string {
	const pkg = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8"));
	const key = subpath ? `./${subpath}` : ".";
	const exp = pkg.exports?.[key];
	const target: string | undefined = (typeof exp === "string" ? exp : (exp?.types ?? exp?.import ?? exp?.default)) ?? (subpath ? undefined : (pkg.types ?? pkg.typings ?? pkg.module ?? pkg.main));
	if (!target) throw new Error(`types: ${pkgDir} has no entry for "${key}"`);
	const declaration = target.replace(/\.mjs$/, ".d.mts").replace(/\.cjs$/, ".d.cts").replace(/\.js$/, ".d.ts");
	if (!existsSync(join(pkgDir, declaration))) throw new Error(`types: ${join(pkgDir, declaration)} does not exist`);
	return declaration.replace(/^\.\//, "");
}

/** Copy a package's declaration files (and its dependencies', for those they import) into the bundle. */
function addPackage(name: string, files: Record<string, string>, done: Set<string>, from = repo): void {
	if (done.has(name)) return;
	done.add(name);
	const dir = dirname(Bun.resolveSync(`${name}/package.json`, from));
	const base = `node_modules/${name}`;
	files[`${base}/package.json`] = readFileSync(join(dir, "package.json"), "utf8");
	for (const file of walk(dir, isDeclaration)) files[`${base}/${relative(dir, file)}`] = readFileSync(file, "utf8");
	const pkg = JSON.parse(files[`${base}/package.json`]!);
	for (const dep of Object.keys(pkg.dependencies ?? {})) addPackage(dep, files, done, dir);
}

/** Build the bundle: our emitted declarations, the packages they and the table name, and @types/node. */
export async function buildTypesBundle(): Promise<TypesBundle> {
	const table = await readModuleTable();
	const local = [...new Set([...table.values()].filter((t) => t.startsWith(".")))].map((t) => resolve(dirname(TABLE), t));
	const out = await emitDeclarations(local);
	const files: Record<string, string> = {};
	for (const file of walk(out, isDeclaration)) files[`coding-agent/${relative(out, file)}`] = readFileSync(file, "utf8");
	const packages = new Set<string>(["@types/node"]);
	for (const text of Object.values(files)) for (const m of text.matchAll(/(?:from|import\()\s*"([^".][^"]*)"/g)) if (!m[1]!.startsWith("node:")) packages.add(packageOf(m[1]!));
	for (const target of table.values()) if (!target.startsWith(".")) packages.add(packageOf(target));
	const done = new Set<string>();
	for (const name of packages) addPackage(name, files, done);

	const paths: Record<string, string> = {};
	for (const [specifier, target] of table) {
		if (target.startsWith(".")) paths[specifier] = `coding-agent/${relative(repo, resolve(dirname(TABLE), target)).replace(/\.ts$/, ".d.ts")}`;
		else {
			const name = packageOf(target);
			paths[specifier] = `node_modules/${name}/${packageTypesEntry(dirname(Bun.resolveSync(`${name}/package.json`, repo)), target.slice(name.length + 1))}`;
		}
	}
	return { files, paths, types: ["node"] };
}

/**
 * A hash of everything the bundle is made from: our sources and the table (every file: any of them
 * can shape an exported type), the compiler settings, this script, and the installed packages
 * whose declarations are copied or referenced (npm's record of node_modules, else the lockfile).
 */
export function typesInputsKey(): string {
	const hash = createHash("sha256");
	const files = [
		...walk(join(repo, "src"), () => true),
		...walk(join(repo, "virtual-modules"), () => true),
		join(repo, "tsconfig.json"),
		join(repo, "package.json"),
		join(repo, "package-lock.json"),
		join(repo, "node_modules/.package-lock.json"),
		import.meta.path,
	].sort();
	for (const file of files) {
		hash.update(`${relative(repo, file)}\0`);
		hash.update(existsSync(file) ? readFileSync(file) : "(missing)");
		hash.update("\0");
	}
	return hash.digest("hex");
}

function cachedBundle(key: string): { files: number; bytes: number } | undefined {
	try {
		const saved = JSON.parse(readFileSync(TYPES_KEY, "utf8")) as { key?: unknown; files?: unknown };
		if (saved.key !== key || typeof saved.files !== "number" || !existsSync(TYPES_BUNDLE)) return undefined;
		return { files: saved.files, bytes: statSync(TYPES_BUNDLE).size };
	} catch {
		return undefined;
	}
}

/** Write dist/agent-types.json.gz, or keep it when it was made from the same inputs (`cached`). */
export async function writeTypesBundle(): Promise<{ files: number; bytes: number; cached: boolean }> {
	const key = typesInputsKey();
	const cached = cachedBundle(key);
	if (cached) return { ...cached, cached: true };
	const bundle = await buildTypesBundle();
	const data = Bun.gzipSync(new TextEncoder().encode(JSON.stringify(bundle)));
	mkdirSync(dirname(TYPES_BUNDLE), { recursive: true });
	writeFileSync(TYPES_BUNDLE, data);
	// The key goes last: a build stopped before this line leaves no key, so the next one emits again.
	const files = Object.keys(bundle.files).length;
	writeFileSync(TYPES_KEY, `${JSON.stringify({ key, files })}\n`);
	return { files, bytes: data.byteLength, cached: false };
}

if (import.meta.main) {
	const { files, bytes, cached } = await writeTypesBundle();
	console.error(`${cached ? "kept (inputs unchanged)" : "wrote"} ${TYPES_BUNDLE}: ${files} declaration files, ${(bytes / 1024).toFixed(0)} KB gzipped`);
}
