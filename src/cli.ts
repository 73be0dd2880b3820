#!/usr/bin/env bun
// Entry point: hand the arguments to main and exit with its code.
import { main } from "./main.ts";

const code = await main(process.argv.slice(2));
process.exit(code);
