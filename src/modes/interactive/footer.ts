// The footer under the editor: where (cwd, git branch, session name), what it cost (tokens in and
// out, cache, cost, context used: the figures /session shows) and which model at what thinking
// level; then the extensions' status texts. FooterData is what setFooter factories get.
import { existsSync, readFileSync, statSync, watch, type FSWatcher } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { truncateToWidth, visibleWidth } from "@earendil-works/pi-tui/dist/utils.js";
import type { Component } from "@earendil-works/pi-tui";
import { tildify } from "../../config.ts";
import { currentTheme } from "./theme/styles.ts";

/** Where HEAD of the repository around `cwd` is (a `.git` folder, or a worktree's `.git` file). */
function findHead(cwd: string): string | undefined {
	for (let dir = resolve(cwd); ; dir = dirname(dir)) {
		const git = join(dir, ".git");
		try {
			if (existsSync(git)) {
				if (statSync(git).isDirectory()) return join(git, "HEAD");
				const pointer = /^gitdir:\s*(.+)$/m.exec(readFileSync(git, "utf8"))?.[1]?.trim();
				if (pointer) return join(resolve(dir, pointer), "HEAD");
			}
		} catch {
			return undefined;
		}
		if (dirname(dir) === dir) return undefined;
	}
}

/** Git branch and extension statuses: what a custom footer cannot get from ctx (pi's FooterDataProvider). */
export class FooterData {
	private readonly head: string | undefined;
	private branch: string | null | undefined;
	private watcher: FSWatcher | undefined;
	private readonly branchListeners = new Set<() => void>();
	readonly statuses = new Map<string, string>();
	private providerCount = 0;

	constructor(cwd: string) {
		this.head = findHead(cwd);
	}

	/** The branch checked out, "detached" on a detached HEAD, null outside a repository. */
	getGitBranch(): string | null {
		if (this.branch !== undefined) return this.branch;
		if (!this.head) return (this.branch = null);
		try {
			const text = readFileSync(this.head, "utf8").trim();
			this.branch = /^ref: refs\/heads\/(.+)$/.exec(text)?.[1] ?? "detached";
		} catch {
			this.branch = null;
		}
		return this.branch;
	}

	getExtensionStatuses(): ReadonlyMap<string, string> {
		return this.statuses;
	}

	getAvailableProviderCount(): number {
		return this.providerCount;
	}

	setAvailableProviderCount(count: number): void {
		this.providerCount = count;
	}

	/** Called when the branch changes (HEAD is watched while someone listens). */
	onBranchChange(callback: () => void): () => void {
		this.branchListeners.add(callback);
		if (!this.watcher && this.head) {
			try {
				this.watcher = watch(dirname(this.head), (_event, name) => {
					if (name !== "HEAD") return;
					this.branch = undefined;
					for (const listener of this.branchListeners) listener();
				});
				this.watcher.unref();
			} catch {
				// No watching (a read-only or vanished folder): the branch is read once.
			}
		}
		return () => {
			this.branchListeners.delete(callback);
			if (this.branchListeners.size === 0) this.dispose();
		};
	}

	/** The branch may have changed (a command ran): read it again next time. */
	refresh(): void {
		this.branch = undefined;
	}

	dispose(): void {
		this.watcher?.close();
		this.watcher = undefined;
	}
}

/** What the footer shows, read when it is refreshed (not on every frame). */
export interface FooterFigures {
	cwd: string;
	sessionName: string | undefined;
	model: string | undefined;
	thinking: string | undefined;
	tokens: { input: number; output: number; cacheRead: number; cacheWrite: number };
	cost: number;
	context: { percent: number | null; window: number } | undefined;
}

function short(n: number): string {
	if (n < 1000) return String(n);
	if (n < 10_000) return `${(n / 1000).toFixed(1)}k`;
	if (n < 1_000_000) return `${Math.round(n / 1000)}k`;
	return `${(n / 1_000_000).toFixed(1)}M`;
}

/** Left and right parts on one line, the left cut first when they do not fit. */
function spread(left: string, right: string, width: number): string {
	const gap = width - visibleWidth(left) - visibleWidth(right);
	if (gap >= 2) return left + " ".repeat(gap) + right;
	return truncateToWidth(`${truncateToWidth(left, Math.max(0, width - visibleWidth(right) - 2))}  ${right}`, width);
}

/** The extension statuses by key, each made one line, joined by spaces. Called only when there are some (sort is compiled on its first call). */
function statusLine(statuses: ReadonlyMap<string, string>): string {
	return [...statuses.entries()]
		.sort(([a], [b]) => a.localeCompare(b))
		.map(([, text]) => text.replace(/[\r\n\t]/g, " ").replace(/ +/g, " ").trim())
		.join(" ");
}

export class FooterView implements Component {
	private figures: FooterFigures | undefined;
	private cache: { width: number; lines: string[] } | undefined;

	constructor(
		private readonly data: FooterData,
		private readonly read: () => FooterFigures,
	) {}

	/** Read the figures again (after an answer, a model change, a new session). */
	refresh(): void {
		this.figures = undefined;
		this.cache = undefined;
	}

	invalidate(): void {
		this.cache = undefined;
	}

	render(width: number): readonly string[] {
		if (this.cache?.width === width) return this.cache.lines;
		const theme = currentTheme();
		const f = (this.figures ??= this.read());
		const branch = this.data.getGitBranch();
		const where = `${tildify(f.cwd)}${branch ? ` (${branch})` : ""}${f.sessionName ? ` • ${f.sessionName}` : ""}`;
		const t = f.tokens;
		const usage = [`↑${short(t.input)}`, `↓${short(t.output)}`];
		if (t.cacheRead) usage.push(`R${short(t.cacheRead)}`);
		if (t.cacheWrite) usage.push(`W${short(t.cacheWrite)}`);
		usage.push(`$${f.cost.toFixed(3)}`);
		if (f.context) usage.push(`${f.context.percent === null ? "?" : f.context.percent.toFixed(1)}%/${short(f.context.window)}`);
		const model = f.model ? `${f.model}${f.thinking ? ` • ${f.thinking}` : ""}` : "no model (/model)";
		const lines = [theme.fg("dim", truncateToWidth(where, width)), theme.fg("dim", spread(usage.join(" "), model, width))];
		// Extension statuses on one line (as pi's footer).
		if (this.data.statuses.size > 0) lines.push(truncateToWidth(statusLine(this.data.statuses), width, theme.fg("dim", "...")));
		this.cache = { width, lines };
		return lines;
	}
}
