// The declaration bundle scripts/types.ts writes at build time, embedded in the binary as a file
// (read only by `agent types` and `agent new extension`, so start-up never pays for it).
import bundlePath from "../../dist/agent-types.json.gz" with { type: "file" };

export interface TypesBundle {
	files: Record<string, string>;
	paths: Record<string, string>;
	types: string[];
}

export async function readTypesBundle(): Promise<TypesBundle> {
	const data = new Uint8Array(await Bun.file(bundlePath).arrayBuffer());
	return JSON.parse(new TextDecoder().decode(Bun.gunzipSync(data))) as TypesBundle;
}
