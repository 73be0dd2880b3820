// Tool descriptions are markdown files imported as text (`with { type: "text" }`); Bun inlines
// them into the bundle, so the compiled binary carries them without any file on disk.
declare module "*.md" {
	const text: string;
	export default text;
}
