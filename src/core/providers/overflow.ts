// Recognising "the request was larger than the model's context window" among failed requests,
// across providers: each says it its own way, and only some use a status of their own (413).

// Phrases seen from OpenAI and compatible servers, Anthropic, Google, Mistral, Groq, OpenRouter,
// llama.cpp, LM Studio, Ollama and vLLM.
const OVERFLOW = [
	/prompt is too long/i,
	/maximum context length/i,
	/context[_ ]length[_ ]exceeded/i,
	/exceeds? (?:the )?(?:model'?s? )?(?:maximum )?context (?:window|length|size)/i,
	/context window (?:is )?(?:exceeded|too small)/i,
	/input (?:is )?too long/i,
	/too many (?:input )?tokens/i,
	/reduce the length of the messages/i,
	/input token count.*exceeds/i,
	/exceeds the available context size/i,
	/greater than the context length/i,
	/prompt (?:contains|has) \d+ tokens.*(?:too large|exceeds|maximum)/i,
];

/** Whether a failed assistant message says the context did not fit. */
export function isContextOverflow(message: { stopReason: string; errorMessage?: string; errorStatus?: number }): boolean {
	if (message.stopReason !== "error") return false;
	// A 429 can mention tokens too ("tokens per minute"): that is a rate limit, retried elsewhere.
	if (message.errorStatus === 429) return false;
	if (message.errorStatus === 413) return true;
	const text = message.errorMessage ?? "";
	return OVERFLOW.some((pattern) => pattern.test(text));
}
