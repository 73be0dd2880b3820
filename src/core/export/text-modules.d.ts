// The transcript's stylesheet is imported as text (`with { type: "text" }`); Bun inlines it into
// the bundle, so the compiled binary carries it without a file on disk.
declare module "*.css" {
	const text: string;
	export default text;
}
