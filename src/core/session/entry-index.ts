// Entries by id, without building a map at open: a session read from a file knows its ids at first
// only as a sorted list of numbers (what each 8-character id reads as in hex), which tells that no
// id repeats and that a new id is free; the map is built the first time an entry is looked up by id.
import type { SessionEntry } from "./session-entries.ts";

/** What an id reads as for the sorted list: its hex value when it is 8 characters long and starts with hex digits; NaN otherwise. */
export function idKey(id: string): number {
	return id.length === 8 ? parseInt(id, 16) : Number.NaN;
}

/**
 * The ids of the entries a parse kept, as keys (idKey) for the ones that have one, exactly for the
 * rest. Different ids may share a key ("0000000A", "0000000a", "0000000g"…): a repeat of a key is
 * only a sign that an id may repeat, which the parser then settles with a map.
 */
export class FileIds {
	private keys = new Float64Array(1024);
	private count = 0;
	/** Ids that have no key, with the first entry that had each. */
	readonly others = new Map<string, SessionEntry>();

	/** Take a kept entry's id; false when it has no key and is already there (a sure repeat). */
	add(entry: SessionEntry): boolean {
		// idKey() and push(), written out: this runs once per line of a long session, mostly interpreted.
		const id = entry.id;
		const key = id.length === 8 ? parseInt(id, 16) : Number.NaN;
		if (key !== key) {
			if (this.others.has(id)) return false;
			this.others.set(id, entry);
			return true;
		}
		if (this.count === this.keys.length) this.grow();
		this.keys[this.count++] = key;
		return true;
	}

	/** Take the key of an id that was not kept but may repeat a kept one's (only a repeated key is told). */
	addKey(id: string): void {
		const key = idKey(id);
		if (key === key) this.push(key);
	}

	private push(key: number): void {
		if (this.count === this.keys.length) this.grow();
		this.keys[this.count++] = key;
	}

	private grow(): void {
		const grown = new Float64Array(this.keys.length * 2);
		grown.set(this.keys);
		this.keys = grown;
	}

	/** The keys sorted, or undefined when two are the same (an id may repeat). */
	sorted(): Float64Array | undefined {
		const keys = this.keys.slice(0, this.count).sort();
		for (let i = 1; i < keys.length; i++) if (keys[i] === keys[i - 1]) return undefined;
		return keys;
	}
}

/** True when `keys` (sorted) holds `key`. */
function holds(keys: Float64Array, key: number): boolean {
	let lo = 0;
	let hi = keys.length - 1;
	while (lo <= hi) {
		const mid = (lo + hi) >> 1;
		const at = keys[mid]!;
		if (at === key) return true;
		if (at < key) lo = mid + 1;
		else hi = mid - 1;
	}
	return false;
}

/**
 * The entries of a session by id. `entries` is the manager's own list (kept up to date by it):
 * the map, when it is first needed, is built from it. Until then, ids are known from the file's
 * sorted keys and the ids added since.
 */
export class EntryIndex {
	private map: Map<string, SessionEntry> | undefined;
	/** Ids added since open while there is no map (the file's are in `fileKeys`). */
	private readonly added = new Set<string>();

	private readonly fileKeys: Float64Array | undefined;

	/** `known`: what the parser found (FileIds.sorted()'s keys, or its map); absent: the map is built now. */
	constructor(
		private readonly entries: readonly SessionEntry[],
		known: { idKeys?: Float64Array; byId?: Map<string, SessionEntry> } = {},
	) {
		this.fileKeys = known.byId ? undefined : known.idKeys;
		if (!this.fileKeys) this.map = known.byId ?? new Map(entries.map((e) => [e.id, e]));
	}

	/** The entry with this id; the last entry needs no map. */
	get(id: string): SessionEntry | undefined {
		if (this.map) return this.map.get(id);
		const last = this.entries.at(-1);
		if (last !== undefined && last.id === id) return last;
		return this.built().get(id);
	}

	has(id: string): boolean {
		return this.get(id) !== undefined;
	}

	/** True for the id of an entry (and maybe for one that left the list): a new entry takes an id this says false for. */
	taken(id: string): boolean {
		if (this.map) return this.map.has(id);
		const key = idKey(id);
		if (key !== key) return this.built().has(id);
		return holds(this.fileKeys!, key) || this.added.has(id);
	}

	/** A new entry (already in the list). */
	add(entry: SessionEntry): void {
		if (this.map) this.map.set(entry.id, entry);
		else this.added.add(entry.id);
	}

	/** An entry left the list. */
	delete(id: string): void {
		this.map?.delete(id);
	}

	/** Whether the map was built (for tests: which lookups need it). */
	hasMap(): boolean {
		return this.map !== undefined;
	}

	private built(): Map<string, SessionEntry> {
		this.map ??= new Map(this.entries.map((e) => [e.id, e]));
		return this.map;
	}
}
