// Comparing two observations of one scenario, and the file where pi 1.6.0's observations are kept.
import type { Observation } from "./observe.ts";

/** Relative to the repository. */
export const RECORD_PATH = "test/fixtures/pi-examples/pi-1.6.0.json";

export interface Recorded {
	/** Where the observations came from. */
	source: string;
	scenarios: Record<string, Observation>;
}

/** An extension that failed to load makes the run fail before any request. */
export function loaded(o: Observation): boolean {
	return !/Failed to load extension/.test(o.stderr);
}

/**
 * What differs, one line per field. stderr is compared only for lines an extension's failure
 * prints (the wording of our own notices is ours).
 */
export function differences(ours: Observation, pi: Observation): string[] {
	const out: string[] = [];
	const json = (v: unknown) => JSON.stringify(v, null, 1);
	if (ours.code !== pi.code) out.push(`exit code ${ours.code}, pi ${pi.code}`);
	if (ours.stdout !== pi.stdout) out.push(`stdout ${json(ours.stdout)}, pi ${json(pi.stdout)}`);
	if (loaded(ours) !== loaded(pi)) out.push(`load: ${ours.stderr.trim()}`);
	if (ours.requests.length !== pi.requests.length) out.push(`${ours.requests.length} requests, pi ${pi.requests.length}`);
	for (let i = 0; i < Math.min(ours.requests.length, pi.requests.length); i++) {
		const a = ours.requests[i]!;
		const b = pi.requests[i]!;
		for (const key of ["messages", "tools", "systemAdded", "systemRemoved"] as const) {
			if (json(a[key]) !== json(b[key])) out.push(`request ${i + 1} ${key}: ${json(a[key])}\n    pi: ${json(b[key])}`);
		}
	}
	if (json(ours.session) !== json(pi.session)) out.push(`session: ${json(ours.session)}\n    pi: ${json(pi.session)}`);
	if (json(ours.files) !== json(pi.files)) out.push(`files: ${json(ours.files)}\n    pi: ${json(pi.files)}`);
	if (ours.probe !== pi.probe) out.push(`probe: ${json(ours.probe)}, pi ${json(pi.probe)}`);
	return out;
}
