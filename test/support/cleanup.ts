// Preloaded by bun test (bunfig.toml): what one test process made for all its files is removed when
// the run ends. bun test runs no process "exit" handlers, so an afterAll here is the end of the run.
import { afterAll } from "bun:test";
import { removeCopiedBinary } from "./agent.ts";

afterAll(removeCopiedBinary);
