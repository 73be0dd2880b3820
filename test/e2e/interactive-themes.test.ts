// Themes in the TUI, through the compiled binary in tmux (truecolor, so each token's colour is
// readable in `capture-pane -e`): built-in dark and light, the `theme` setting, user themes from
// ~/.agent/themes, project themes only when the folder is trusted, ctx.ui's theme members
// re-colouring the whole screen, and a broken theme file named in a warning.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { TempWorld } from "../support/agent.ts";
import { hasTmux, Terminal } from "../support/terminal.ts";

const TIMEOUT = 30_000;
const COLOUR = { NO_COLOR: undefined, COLORTERM: "truecolor" };

/** The editor's border colour (the `borderMuted` token) as the escape capture-pane shows. */
const DARK_BORDER = "\x1b[38;2;77;84;96m───";
const LIGHT_BORDER = "\x1b[38;2;184;190;200m───";
const OCEAN_BORDER = "\x1b[38;2;0;95;135m───";

/** A theme document: the built-in dark one with a name and a few colours changed. */
function themeJson(name: string, colors: Record<string, string | number> = {}): string {
	const dark = JSON.parse(readFileSync(join(import.meta.dir, "../../src/modes/interactive/theme/dark.json"), "utf8"));
	return JSON.stringify({ ...dark, name, colors: { ...dark.colors, ...colors } }, null, 2);
}

const THEME_EXT = `import { Theme } from "@scope/coding-agent";
export default function (pi) {
	pi.registerCommand("themes", {
		description: "List or switch themes",
		handler: async (args, ctx) => {
			if (args === "object") {
				const light = ctx.ui.getTheme("light");
				ctx.ui.notify("object " + (light instanceof Theme) + " " + (ctx.ui.theme instanceof Theme) + " " + JSON.stringify(ctx.ui.setTheme(light)));
				return;
			}
			if (args) {
				const r = ctx.ui.setTheme(args);
				ctx.ui.notify(r.success ? "now " + ctx.ui.theme.name : "failed: " + r.error);
				return;
			}
			ctx.ui.notify("themes: " + ctx.ui.getAllThemes().map((t) => t.name + "=" + (t.path ? t.path.split("/").slice(-3).join("/") : "built-in")).join(" "));
		},
	});
}
`;

describe.skipIf(!hasTmux)("interactive themes", () => {
	test("dark by default; the theme setting picks light; setTheme by name or Theme recolours the screen and is remembered", async () => {
		await using world = new TempWorld();
		world.write("home/.agent/settings.json", '{\n  "quietStartup": true,\n  "theme": "light"\n}\n');
		world.write("home/.agent/themes/ocean.json", themeJson("ocean", { borderMuted: "#005f87" }));
		const ext = world.write("themes.ts", THEME_EXT);
		await using term = new Terminal(world, ["-ne", "-e", ext], { env: COLOUR });
		await term.ready();
		expect(term.colouredScreen()).toContain(LIGHT_BORDER);
		term.submit("/themes");
		await term.waitForAbove(" themes: dark=built-in light=built-in ocean=.agent/themes/ocean.json");
		term.submit("/themes ocean");
		await term.waitForAbove(" now ocean");
		// The whole screen takes the new colours, nothing of the light theme is left (a capture
		// mid-redraw has the new colours at the top only).
		let coloured = "";
		await term.waitUntil("the ocean border", () => (coloured = term.colouredScreen()).includes(OCEAN_BORDER) && !coloured.includes(LIGHT_BORDER));
		expect(coloured).not.toContain(LIGHT_BORDER);
		term.submit("/themes nope");
		await term.waitForAbove(" failed: Theme \"nope\" not found (available: dark, light, ocean)");
		term.submit("/themes object");
		await term.waitForAbove(' object true true {"success":true}');
		await term.waitUntil("the light border", () => term.colouredScreen().includes(LIGHT_BORDER));
		term.keys("C-d");
		await term.waitFor("EXIT=0");
		// The theme chosen by name was saved; the rest of the file is as it was.
		expect(JSON.parse(readFileSync(join(world.agentDir, "settings.json"), "utf8"))).toEqual({ quietStartup: true, theme: "ocean" });
	}, TIMEOUT);

	test("with no setting the screen is dark", async () => {
		await using world = new TempWorld();
		await using term = new Terminal(world, ["-ne"], { env: COLOUR });
		await term.ready();
		expect(term.colouredScreen()).toContain(DARK_BORDER);
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);

	test("a broken theme file is named in a warning and the screen falls back to dark", async () => {
		await using world = new TempWorld();
		world.write("home/.agent/settings.json", JSON.stringify({ theme: "broken" }));
		world.write("home/.agent/themes/broken.json", '{\n  "name": "broken",\n  "colors": { "accent": "#fff", }\n}\n');
		world.write("home/.agent/themes/partial.json", JSON.stringify({ name: "partial", colors: { accent: "#ffffff", bogus: 3 } }));
		await using term = new Terminal(world, ["-ne"], { env: COLOUR, width: 200 });
		const start = await term.waitForAbove("Using the dark theme.");
		expect(start.above).toContain(" Warning: Theme file ~/.agent/themes/partial.json is not a valid theme: unknown colour token \"bogus\" (custom colours go under \"vars\").");
		expect(start.above).toContain(" Warning: Theme file ~/.agent/themes/broken.json:3:33: invalid JSON:");
		expect(start.above).toContain("The theme was not loaded. Using the dark theme.");
		expect(term.colouredScreen()).toContain(DARK_BORDER);
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);

	test("project themes load only in a trusted folder; an untrusted one is named in the skip line", async () => {
		await using world = new TempWorld();
		world.write("project/.agent/themes/team.json", themeJson("team", { borderMuted: "#005f87" }));
		world.write("project/.agent/settings.json", JSON.stringify({ theme: "team" }));
		const ext = world.write("themes.ts", THEME_EXT);
		const untrusted = await world.run(["-e", ext, "-p", "hi"]);
		expect(untrusted.stderr).toContain(`Skipped project themes in ${world.cwd}/.agent: folder not trusted (pass --approve or run "agent trust").`);
		{
			// The trust prompt lists the themes among what the folder would load.
			await using term = new Terminal(world, ["-e", ext], { width: 160 });
			const prompt = await term.waitFor("Don't trust");
			expect(prompt).toContain("Project themes that would apply");
			expect(prompt).toContain("Project themes that would apply:\n│    .agent/themes\n");
			term.keys("C-c");
			await term.waitFor("EXIT=130");
		}
		{
			await using term = new Terminal(world, ["-na", "-e", ext], { env: COLOUR });
			await term.ready();
			term.submit("/themes");
			await term.waitForAbove(" themes: dark=built-in light=built-in");
			expect(term.colouredScreen()).toContain(DARK_BORDER);
			term.keys("C-d");
			await term.waitFor("EXIT=0");
		}
		await using term = new Terminal(world, ["-a", "-e", ext], { env: COLOUR });
		await term.ready();
		expect(term.colouredScreen()).toContain(OCEAN_BORDER);
		term.submit("/themes");
		await term.waitForAbove(" themes: dark=built-in light=built-in team=.agent/themes/team.json");
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);
});
