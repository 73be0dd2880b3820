// Thinking levels against what a model supports, and what each level means on the wire:
// an effort word for OpenAI-compatible servers, a token budget for Anthropic.
import type { Model, ThinkingLevel } from "./types.ts";
import { THINKING_LEVELS } from "./types.ts";

/** Levels a model accepts: only "off" without reasoning; "xhigh" and "max" only where the model maps them. */
export function supportedThinkingLevels(model: Model): ThinkingLevel[] {
	if (!model.reasoning) return ["off"];
	return THINKING_LEVELS.filter((level) => (level !== "xhigh" && level !== "max") || model.thinkingLevelMap?.[level] !== undefined);
}

/**
 * The nearest level the model supports, as pi 1.6 picks it: the level itself, else the next one up
 * it has, else the next one down ("max" on a model with neither extended level is "high").
 */
export function clampThinkingLevel(model: Model, level: ThinkingLevel): ThinkingLevel {
	const supported = supportedThinkingLevels(model);
	if (supported.includes(level)) return level;
	const at = THINKING_LEVELS.indexOf(level);
	const up = THINKING_LEVELS.slice(at + 1).find((l) => supported.includes(l));
	return up ?? THINKING_LEVELS.slice(0, at).findLast((l) => supported.includes(l)) ?? "off";
}

const DEFAULT_EFFORT: Record<Exclude<ThinkingLevel, "off">, string> = {
	minimal: "minimal",
	low: "low",
	medium: "medium",
	high: "high",
	xhigh: "high",
	max: "high",
};

/**
 * `reasoning_effort` for an OpenAI-compatible request, or undefined to send none. With no level
 * (or "off") a model that can switch reasoning off says how in `thinkingLevelMap.off` (e.g. "none").
 */
export function reasoningEffort(model: Model, level: ThinkingLevel | undefined): string | undefined {
	if (!model.reasoning) return undefined;
	if (!level || level === "off") return stringOr(model.thinkingLevelMap?.off, undefined);
	return stringOr(model.thinkingLevelMap?.[level], DEFAULT_EFFORT[level]);
}

const ADAPTIVE_EFFORT: Record<Exclude<ThinkingLevel, "off">, string> = {
	minimal: "low",
	low: "low",
	medium: "medium",
	high: "high",
	xhigh: "xhigh",
	max: "max",
};

/** Anthropic `output_config.effort` for a model with adaptive thinking, or undefined when thinking stays off. */
export function adaptiveEffort(model: Model, level: ThinkingLevel | undefined): string | undefined {
	if (!model.reasoning || !level || level === "off") return undefined;
	return stringOr(model.thinkingLevelMap?.[level], ADAPTIVE_EFFORT[level]);
}

function stringOr(value: string | number | undefined, fallback: string | undefined): string | undefined {
	return typeof value === "string" ? value : fallback;
}

const DEFAULT_BUDGET: Record<Exclude<ThinkingLevel, "off">, number> = {
	minimal: 1024,
	low: 2048,
	medium: 8192,
	high: 16384,
	xhigh: 32768,
	max: 32768,
};

/** Anthropic `budget_tokens` for a level, or undefined when thinking stays off. */
export function thinkingBudget(model: Model, level: ThinkingLevel | undefined): number | undefined {
	if (!model.reasoning || !level || level === "off") return undefined;
	const mapped = model.thinkingLevelMap?.[level];
	return typeof mapped === "number" ? mapped : DEFAULT_BUDGET[level];
}
