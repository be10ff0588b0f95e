import type { BatchResultItem, ResponseStatus } from '../../../api';

/**
 * What one BatchMessages request came to, from the point of view of not sending twice:
 * - `answered`: the provider processed it; one result per message.
 * - `refused`: it certainly did not process it (an error answer); safe to send again.
 * - `retry`: refused for now (429, 5xx, no connection); try again after `delayMs`.
 * - `unsent`: it never left (a wrong address, a TLS mismatch), and waiting will not mend it.
 * - `lost`: it may have processed it, and we cannot know.
 */
export type BatchOutcome =
	| { kind: 'answered'; results: BatchResultItem[] }
	| { kind: 'refused'; status: number; error: ResponseStatus | undefined; detail: string }
	| { kind: 'retry'; status: number; reason: string; retryAfterMs?: number }
	| { kind: 'unsent'; reason: string }
	| { kind: 'lost'; reason: string };
