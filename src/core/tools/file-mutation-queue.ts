// Parallel tool calls may write the same file; mutations of one file run one at a time so no
// edit reads content another is about to replace. Different files still run in parallel.
import { realpathSync } from "node:fs";
import { resolve } from "node:path";

const tails = new Map<string, Promise<unknown>>();

function queueKey(filePath: string): string {
	const absolute = resolve(filePath);
	try {
		return realpathSync(absolute);
	} catch {
		return absolute; // not created yet: its path is the identity
	}
}

/** Run `fn` after every earlier mutation queued for the same file has settled. */
export function withFileMutationQueue<T>(filePath: string, fn: () => Promise<T>): Promise<T> {
	const key = queueKey(filePath);
	const previous = tails.get(key) ?? Promise.resolve();
	const run = previous.then(() => fn());
	const tail = run.then(
		() => undefined,
		() => undefined,
	);
	tails.set(key, tail);
	void tail.then(() => {
		if (tails.get(key) === tail) tails.delete(key);
	});
	return run;
}
