// Files embedded with `with { type: "file" }`: the import is the file's path (inside the binary's
// virtual filesystem when compiled).
declare module "*.json.gz" {
	const path: string;
	export default path;
}
