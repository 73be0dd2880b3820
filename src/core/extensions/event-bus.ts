// `pi.events`: a string-channel bus shared by all extensions of one process. Separate from
// `pi.on()`; a throwing listener is logged and ignored (SPEC §6). The bus survives reloads.
import { writeStderr } from "../../stdio.ts";
import type { EventBus } from "./types.ts";

type Listener = (data: unknown) => unknown;

export interface EventBusController extends EventBus {
	/** Number of listeners on a channel (all channels when omitted). */
	listenerCount(channel?: string): number;
	clear(): void;
}

export function createEventBus(): EventBusController {
	const channels = new Map<string, Set<Listener>>();
	const report = (channel: string, error: unknown) => {
		const message = error instanceof Error ? error.message : String(error);
		writeStderr(`Event handler error (${channel}): ${message}\n`);
	};
	return {
		emit(channel, data) {
			const listeners = channels.get(channel);
			if (!listeners) return;
			// A snapshot, so a listener that unsubscribes or subscribes affects only later emits.
			for (const listener of [...listeners]) {
				try {
					const result = listener(data);
					if (result instanceof Promise) result.catch((error) => report(channel, error));
				} catch (error) {
					report(channel, error);
				}
			}
		},
		on(channel, handler) {
			let listeners = channels.get(channel);
			if (!listeners) channels.set(channel, (listeners = new Set()));
			// Wrap so the same function subscribed twice gets two independent subscriptions.
			const listener: Listener = (data) => handler(data);
			listeners.add(listener);
			return () => {
				listeners.delete(listener);
				if (listeners.size === 0 && channels.get(channel) === listeners) channels.delete(channel);
			};
		},
		listenerCount(channel) {
			if (channel !== undefined) return channels.get(channel)?.size ?? 0;
			let n = 0;
			for (const set of channels.values()) n += set.size;
			return n;
		},
		clear() {
			channels.clear();
		},
	};
}
