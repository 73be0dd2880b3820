// The TUI helpers of `@scope/coding-agent` (DynamicBorder, CustomEditor, getMarkdownTheme, …),
// standing in for the real ones until an extension uses one: only then are pi-tui and our
// components loaded (~6 ms in the binary, measured), so a print-mode run whose extensions import
// only defineTool never pays for them. Classes are proxies that construct, extend and instanceof
// as the real class does.
import { unsupported } from "./core/compat/unsupported.ts";
import { detail } from "./core/timing.ts";

type Helpers = typeof import("./modes/interactive/public.ts");

let helpers: Helpers | undefined;

function load(): Helpers {
	if (helpers) return helpers;
	const started = performance.now();
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	helpers = require("./modes/interactive/public.ts") as Helpers;
	detail("load TUI helpers", performance.now() - started);
	return helpers;
}

/**
 * A stand-in for a class of the helpers module. The target is a plain function (its `prototype`
 * is writable, so the proxy may answer with the real one); `extends`, `new`, statics and
 * `instanceof` all reach the real class, which loads on first touch.
 */
function lazyClass<K extends keyof Helpers>(name: K): Helpers[K] {
	const real = () => load()[name] as unknown as new (...args: unknown[]) => object;
	return new Proxy(function () {}, {
		construct: (_target, args, newTarget) => Reflect.construct(real(), args, newTarget),
		get: (_target, key) => Reflect.get(real(), key),
		has: (_target, key) => Reflect.has(real(), key),
		getPrototypeOf: () => Reflect.getPrototypeOf(real()),
	}) as unknown as Helpers[K];
}

export const BorderedLoader = lazyClass("BorderedLoader");
export type BorderedLoader = InstanceType<Helpers["BorderedLoader"]>;
export const CustomEditor = lazyClass("CustomEditor");
export type CustomEditor = InstanceType<Helpers["CustomEditor"]>;
export const DynamicBorder = lazyClass("DynamicBorder");
export type DynamicBorder = InstanceType<Helpers["DynamicBorder"]>;
export const Theme = lazyClass("Theme");
/** What extensions are given and may pass on: core's Theme, which the TUI's class implements. */
export type Theme = import("./core/extensions/ui-types.ts").Theme;
export const KeybindingsManager = lazyClass("KeybindingsManager");
export type KeybindingsManager = InstanceType<Helpers["KeybindingsManager"]>;
export type { RenderDiffOptions } from "./modes/interactive/public.ts";

export const getMarkdownTheme: Helpers["getMarkdownTheme"] = (...args) => load().getMarkdownTheme(...args);
export const getSelectListTheme: Helpers["getSelectListTheme"] = (...args) => load().getSelectListTheme(...args);
export const getSettingsListTheme: Helpers["getSettingsListTheme"] = (...args) => load().getSettingsListTheme(...args);
export const getEditorTheme: Helpers["getEditorTheme"] = (...args) => load().getEditorTheme(...args);
export const highlightCode: Helpers["highlightCode"] = (...args) => load().highlightCode(...args);
export const getLanguageFromPath: Helpers["getLanguageFromPath"] = (...args) => load().getLanguageFromPath(...args);
export const keyHint: Helpers["keyHint"] = (...args) => load().keyHint(...args);
export const keyText: Helpers["keyText"] = (...args) => load().keyText(...args);
export const rawKeyHint: Helpers["rawKeyHint"] = (...args) => load().rawKeyHint(...args);
export const renderDiff: Helpers["renderDiff"] = (...args) => load().renderDiff(...args);
export const truncateToVisualLines: Helpers["truncateToVisualLines"] = (...args) => load().truncateToVisualLines(...args);
/** pi 1.6 draws with the theme set up at start; here the theme is always ready, so this does nothing. */
export function initTheme(_themeName?: string, _enableWatcher?: boolean): void {}

// pi's own interactive components, which its extensions rarely build: they load, and say so when used.
export const ArminComponent = unsupported("ArminComponent");
export const AssistantMessageComponent = unsupported("AssistantMessageComponent");
export const BashExecutionComponent = unsupported("BashExecutionComponent");
export const BranchSummaryMessageComponent = unsupported("BranchSummaryMessageComponent");
export const CompactionSummaryMessageComponent = unsupported("CompactionSummaryMessageComponent");
export const CustomMessageComponent = unsupported("CustomMessageComponent");
export const ExtensionEditorComponent = unsupported("ExtensionEditorComponent");
export const ExtensionInputComponent = unsupported("ExtensionInputComponent");
export const ExtensionSelectorComponent = unsupported("ExtensionSelectorComponent");
export const FooterComponent = unsupported("FooterComponent");
export const LoginDialogComponent = unsupported("LoginDialogComponent");
export const ModelSelectorComponent = unsupported("ModelSelectorComponent");
export const OAuthSelectorComponent = unsupported("OAuthSelectorComponent");
export const SessionSelectorComponent = unsupported("SessionSelectorComponent");
export const SettingsSelectorComponent = unsupported("SettingsSelectorComponent");
export const ShowImagesSelectorComponent = unsupported("ShowImagesSelectorComponent");
export const SkillInvocationMessageComponent = unsupported("SkillInvocationMessageComponent");
export const ThemeSelectorComponent = unsupported("ThemeSelectorComponent");
export const ThinkingSelectorComponent = unsupported("ThinkingSelectorComponent");
export const ToolExecutionComponent = unsupported("ToolExecutionComponent");
export const TreeSelectorComponent = unsupported("TreeSelectorComponent");
export const UserMessageComponent = unsupported("UserMessageComponent");
export const UserMessageSelectorComponent = unsupported("UserMessageSelectorComponent");
