// One scenario observed with the baselines its comparison needs (the system prompt without the
// extension, the built-in tools' own lines), cached per flavour: shared by scripts/pi-compat.ts
// and the e2e test that compares our binary with pi 1.6.0's recorded observations.
import { baselineSystem, observe, type Flavour, type Observation } from "./observe.ts";
import type { Scenario } from "./scenarios.ts";

const baselines = new Map<string, string[]>();
async function baseline(scenario: Scenario, flavour: Flavour): Promise<string[]> {
	const key = `${flavour}\0${JSON.stringify([scenario.write, scenario.setup])}`;
	let lines = baselines.get(key);
	if (!lines) baselines.set(key, (lines = await baselineSystem(scenario, flavour)));
	return lines;
}

/** Lines the built-in tools put into the flavour's prompt: default tools and all seven. */
const builtinLines = new Map<Flavour, string[]>();
async function builtinSystem(flavour: Flavour): Promise<string[]> {
	let lines = builtinLines.get(flavour);
	if (!lines) {
		const empty: Scenario = { name: "builtin", example: "", prompts: [] };
		const all = await baselineSystem(empty, flavour, ["--tools", "read,bash,edit,write,grep,find,ls"]);
		const none = await baselineSystem(empty, flavour, ["--no-tools"]);
		const defaults = await baselineSystem(empty, flavour);
		const common = new Set(none);
		builtinLines.set(flavour, (lines = [...all, ...defaults].filter((l) => !common.has(l))));
	}
	return lines;
}

export async function runScenario(scenario: Scenario, flavour: Flavour): Promise<Observation> {
	return observe(scenario, flavour, { baseSystem: await baseline(scenario, flavour), builtinSystem: await builtinSystem(flavour) });
}
