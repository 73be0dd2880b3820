// CustomEditor's completion provider: a first provider whose trigger characters the editor has
// already is set without pi-tui rebuilding its trigger patterns, and completes as before; any other
// provider (new trigger characters, a second provider) goes through pi-tui's own setter.
import { describe, expect, test } from "bun:test";
import type { AutocompleteItem, AutocompleteProvider, AutocompleteSuggestions, TUI } from "@earendil-works/pi-tui";
import { CustomEditor } from "../../../src/modes/interactive/components/custom-editor.ts";
import { createKeybindings } from "../../../src/modes/interactive/keybindings.ts";
import { getEditorTheme } from "../../../src/modes/interactive/theme/styles.ts";

const tui = { requestRender() {}, terminal: { rows: 40, columns: 80 } } as unknown as TUI;

/** A provider that offers one item and records the text it was asked about. */
function provider(triggerCharacters?: string[]): AutocompleteProvider & { asked: string[] } {
	const asked: string[] = [];
	return {
		asked,
		...(triggerCharacters ? { triggerCharacters } : {}),
		async getSuggestions(lines: string[], line: number, col: number): Promise<AutocompleteSuggestions | null> {
			const before = (lines[line] ?? "").slice(0, col);
			asked.push(before);
			return { items: [{ value: `${before}done`, label: "done" }], prefix: before };
		},
		applyCompletion(lines: string[], line: number, col: number, item: AutocompleteItem) {
			return { lines: [item.value], cursorLine: line, cursorCol: col + item.value.length };
		},
	};
}

/** pi-tui's private completion fields, to see what its setter did. */
const fields = (editor: CustomEditor) => editor as unknown as { autocompleteProvider?: AutocompleteProvider; autocompleteTriggerCharacters: string[]; autocompleteTriggerPattern: RegExp; autocompleteDebouncePattern: RegExp };

async function until(done: () => boolean): Promise<void> {
	const deadline = Date.now() + 5_000;
	while (!done()) {
		if (Date.now() > deadline) throw new Error("condition not met");
		await Bun.sleep(5);
	}
}

const newEditor = () => new CustomEditor(tui, getEditorTheme(), createKeybindings());

describe("CustomEditor.setAutocompleteProvider", () => {
	test("a first provider with the editor's own trigger characters: set as it is, patterns kept, completion works", async () => {
		for (const triggers of [["@"], ["@", "#"], [], undefined]) {
			const editor = newEditor();
			const before = { ...fields(editor) };
			const p = provider(triggers);
			editor.setAutocompleteProvider(p);
			expect(fields(editor).autocompleteProvider).toBe(p);
			expect(fields(editor).autocompleteTriggerPattern).toBe(before.autocompleteTriggerPattern);
			expect(fields(editor).autocompleteDebouncePattern).toBe(before.autocompleteDebouncePattern);
			expect(fields(editor).autocompleteTriggerCharacters).toEqual(["@", "#"]);
			editor.handleInput("/");
			await until(() => p.asked.includes("/"));
			expect(editor.isShowingAutocomplete()).toBe(true);
			editor.handleInput("\x1b");
			editor.setText("");
			editor.handleInput("@");
			await until(() => p.asked.includes("@"));
		}
	});

	test("new trigger characters and a second provider go through pi-tui's setter", async () => {
		const editor = newEditor();
		const first = provider(["$"]);
		editor.setAutocompleteProvider(first);
		expect(fields(editor).autocompleteTriggerCharacters).toEqual(["@", "#", "$"]);
		editor.handleInput("$");
		await until(() => first.asked.includes("$"));

		const second = provider(["@"]);
		editor.handleInput("\x1b");
		editor.setAutocompleteProvider(second);
		expect(fields(editor).autocompleteProvider).toBe(second);
		expect(fields(editor).autocompleteTriggerCharacters).toEqual(["@", "#"]);
		expect(editor.isShowingAutocomplete()).toBe(false);
	});
});
