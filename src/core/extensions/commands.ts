// Command names across extensions (SPEC §5): a name registered by two or more extensions becomes
// `name:1`, `name:2`, … in load order, and the bare `/name` is ambiguous rather than sent to the model.
import type { Extension, RegisteredCommand, ResolvedCommand } from "./types.ts";

export interface CommandResolution {
	/** Every command with the name a user types, in load order. */
	commands: ResolvedCommand[];
	/** Bare names shared by several extensions → their suffixed commands. */
	ambiguous: Map<string, ResolvedCommand[]>;
}

/** Give each extension command its invocation name; suffixes skip names already taken. */
export function resolveCommandNames(extensions: Extension[]): CommandResolution {
	const all: RegisteredCommand[] = [];
	for (const e of extensions) all.push(...e.commands.values());
	const counts = new Map<string, number>();
	for (const c of all) counts.set(c.name, (counts.get(c.name) ?? 0) + 1);
	const taken = new Set(all.filter((c) => counts.get(c.name) === 1).map((c) => c.name));
	const next = new Map<string, number>();
	const commands: ResolvedCommand[] = [];
	const ambiguous = new Map<string, ResolvedCommand[]>();
	for (const c of all) {
		if (counts.get(c.name) === 1) {
			commands.push({ ...c, invocationName: c.name });
			continue;
		}
		let n = next.get(c.name) ?? 1;
		while (taken.has(`${c.name}:${n}`)) n++;
		next.set(c.name, n + 1);
		const resolved: ResolvedCommand = { ...c, invocationName: `${c.name}:${n}` };
		taken.add(resolved.invocationName);
		commands.push(resolved);
		const list = ambiguous.get(c.name) ?? [];
		list.push(resolved);
		ambiguous.set(c.name, list);
	}
	return { commands, ambiguous };
}

/** What typing the bare `/name` prints when several extensions registered it. */
export function ambiguousCommandMessage(name: string, candidates: ResolvedCommand[]): string {
	const options = candidates.map((c) => `/${c.invocationName} (${c.sourceInfo.path})`);
	const list = options.length === 2 ? options.join(" or ") : `${options.slice(0, -1).join(", ")} or ${options.at(-1)}`;
	return `Ambiguous command /${name}: use ${list}`;
}
