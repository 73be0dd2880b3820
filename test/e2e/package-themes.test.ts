// A package's themes through the compiled binary in tmux: a theme file in an installed package's
// themes/ folder is one the `theme` setting and ctx.ui can pick, and a theme of the same name in
// ~/.agent/themes wins over it; `agent list` names it among the package's resources.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { TempWorld } from "../support/agent.ts";
import { hasTmux, Terminal } from "../support/terminal.ts";

const COLOUR = { NO_COLOR: undefined, COLORTERM: "truecolor" };
/** The editor's border colour (the `borderMuted` token) as capture-pane -e shows it. */
const border = (r: number, g: number, b: number) => `\x1b[38;2;${r};${g};${b}m───`;

/** The built-in dark theme with a name and the editor border's colour changed. */
function themeJson(name: string, borderMuted: string): string {
	const dark = JSON.parse(readFileSync(join(import.meta.dir, "../../src/modes/interactive/theme/dark.json"), "utf8"));
	return JSON.stringify({ ...dark, name, colors: { ...dark.colors, borderMuted } }, null, 2);
}

const LIST_THEMES = `export default function (pi) {
	pi.registerCommand("themes", {
		handler: async (_args, ctx) => ctx.ui.notify("themes: " + ctx.ui.getAllThemes().map((t) => t.name + "=" + (t.path ? t.path.split("/").slice(-3).join("/") : "built-in")).join(" ")),
	});
}
`;

describe.skipIf(!hasTmux)("package themes", () => {
	test("a package's themes/ are themes the setting can name; your own file of the same name wins", async () => {
		await using world = new TempWorld();
		const pkg = join(world.root, "look-pack");
		world.write(join(pkg, "package.json"), JSON.stringify({ name: "look-pack", version: "1.0.0" }));
		world.write(join(pkg, "themes/harbour.json"), themeJson("harbour", "#005f87"));
		world.write(join(pkg, "themes/mine.json"), themeJson("mine", "#870000"));
		world.write(join(pkg, "extensions/list-themes.js"), LIST_THEMES);
		world.write("home/.agent/themes/mine.json", themeJson("mine", "#008700"));
		world.write("home/.agent/settings.json", JSON.stringify({ quietStartup: true, theme: "harbour", packages: [pkg] }));

		const list = JSON.parse((await world.run(["list", "--json"])).stdout);
		expect(list.packages).toEqual([expect.objectContaining({ source: pkg, status: "installed", themes: ["themes/harbour.json", "themes/mine.json"] })]);

		await using term = new Terminal(world, [], { env: COLOUR });
		await term.ready();
		await term.waitUntil("the package theme's border", () => term.colouredScreen().includes(border(0, 95, 135)));
		// Two files of one name: yours stays, and the screen says so.
		await term.waitUntil("the duplicate-theme warning", (_parts, transcript) => transcript.replace(/\s+/g, " ").includes(`Theme "mine" in ${join(pkg, "themes/mine.json")} is also defined in ~/.agent/themes/mine.json; using the first.`));
		term.submit("/themes");
		await term.waitForAbove(" themes: dark=built-in light=built-in mine=.agent/themes/mine.json harbour=look-pack/themes/harbour.json");
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, 30_000);
});
