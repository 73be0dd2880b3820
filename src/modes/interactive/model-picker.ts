// /model and ctrl+l: a searchable picker of the models there are keys for (the current one
// ticked); with a `--models` scope it opens on the scope and tab switches to all. ctrl+p and
// shift+ctrl+p step through the scope (or every model without one); the footer follows.
import type { Model } from "../../core/providers/types.ts";
import type { InteractiveApp } from "./app.ts";
import { SearchList } from "./components/search-list.ts";
import { rawKeyHint } from "./keybindings.ts";
import { currentTheme } from "./theme/styles.ts";

function hostOf(app: InteractiveApp) {
	if (!app.host) throw new Error("The session is not ready yet.");
	return app.host;
}

const same = (a: Model | undefined, b: Model | undefined) => !!a && !!b && a.provider === b.provider && a.id === b.id;
const label = (m: Model) => `${m.provider}/${m.id}`;

/** Make `model` the session's model and say so; false when its provider has no key. */
async function apply(app: InteractiveApp, model: Model, source: "set" | "cycle"): Promise<boolean> {
	const host = hostOf(app);
	if (!(await host.setModel(model, source))) {
		app.error(`No API key for provider "${model.provider}".`);
		return false;
	}
	app.refreshFooter();
	return true;
}

/** Open the picker; `search` (from `/model <search>`) starts as the query, and a single match is taken at once. */
export async function chooseModel(app: InteractiveApp, search: string): Promise<void> {
	const host = hostOf(app);
	const all = host.registry.getAvailable();
	const scoped = host.session.scopedModels;
	if (all.length === 0) {
		app.error("No models available: configure a provider first (see the warning at start-up).");
		return;
	}
	const query = search.trim().toLowerCase();
	if (query) {
		const exact = all.filter((m) => label(m).toLowerCase() === query || m.id.toLowerCase() === query);
		const matches = exact.length > 0 ? exact : all.filter((m) => `${label(m)} ${m.name}`.toLowerCase().includes(query));
		if (matches.length === 1) {
			if (await apply(app, matches[0]!, "set")) app.info(`Model: ${label(matches[0]!)}`);
			return;
		}
		if (matches.length === 0) {
			app.error(`No available model matches "${search}".`);
			return;
		}
	}
	const current = host.session.model;
	let scope: "scoped" | "all" = scoped.length > 0 ? "scoped" : "all";
	const itemsOf = () => (scope === "scoped" ? scoped : all);
	const picked = await new Promise<Model | undefined>((resolve) => {
		let close: () => void = () => {};
		const finish = (model: Model | undefined) => {
			close();
			app.tui.requestRender();
			resolve(model);
		};
		const theme = currentTheme();
		const list: SearchList<Model> = new SearchList<Model>({
			title: "Select a model",
			items: itemsOf(),
			initial: itemsOf().find((m) => same(m, current)),
			searchText: (m) => `${m.id} ${m.provider} ${label(m)} ${m.name}`,
			row: (m, selected) => {
				const tick = same(m, current) ? theme.fg("success", "✓ ") : "  ";
				const id = selected ? theme.fg("accent", m.id) : m.id;
				const name = m.name && m.name !== m.id ? theme.fg("muted", ` (${m.name})`) : "";
				return `${tick}${id}${name} ${theme.fg("muted", `[${m.provider}]`)}`;
			},
			header: () =>
				scoped.length === 0
					? []
					: [
							`${theme.fg("muted", "Scope: ")}${theme.fg(scope === "all" ? "accent" : "muted", "all")}${theme.fg("muted", " | ")}${theme.fg(scope === "scoped" ? "accent" : "muted", "scoped")}  ${rawKeyHint("tab", "switch")}`,
						],
			hints: [rawKeyHint("↑↓", "move")],
			empty: "No matching models",
			onKey: (data) => {
				if (scoped.length === 0 || data !== "\t") return false;
				scope = scope === "all" ? "scoped" : "all";
				list.setItems(itemsOf());
				app.tui.requestRender();
				return true;
			},
			onSelect: (m) => finish(m),
			onCancel: () => finish(undefined),
		});
		for (const ch of search) list.handleInput(ch);
		close = app.open(list);
	});
	if (!picked || same(picked, current)) return;
	if (await apply(app, picked, "set")) app.info(`Model: ${label(picked)}`);
}

/** ctrl+p (1) / shift+ctrl+p (-1): the next model of the scope, or of every available model. */
export async function cycleModel(app: InteractiveApp, step: 1 | -1): Promise<void> {
	const host = hostOf(app);
	const scoped = host.session.scopedModels;
	const candidates = scoped.length > 0 ? scoped : host.registry.getAvailable();
	if (candidates.length < 2) {
		app.hint(candidates.length === 0 ? "No models available to cycle through." : `Only one model ${scoped.length > 0 ? "in the --models scope" : "available"}.`);
		return;
	}
	const at = candidates.findIndex((m) => same(m, host.session.model));
	const position = (at + step + candidates.length) % candidates.length;
	const next = candidates[position]!;
	if (!(await apply(app, next, "cycle"))) return;
	const thinking = next.reasoning ? ` • thinking ${host.session.thinkingLevel}` : "";
	const where = scoped.length > 0 ? ` (${position + 1}/${candidates.length} in the --models scope)` : "";
	app.hint(`Model: ${label(next)}${thinking}${where}`);
}
