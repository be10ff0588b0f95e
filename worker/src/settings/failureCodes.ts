/**
 * Receipt ErrorCodes and what they say about a number. The one list `campaign retry-failed`
 * and `suppressPermanentFailures` read; the worker README's "Retrying failures" repeats it.
 */

/** A passing failure (the phone off, out of coverage): worth sending again later. */
export const RETRYABLE_ERROR_CODES: readonly string[] = ['UNDELIVERABLE'];

/** The number does not exist: texting it again only costs. */
export const PERMANENT_FAILURE_CODES: readonly string[] = ['UNKNOWN_SUBSCRIBER'];

/** How a suppression added for a permanent failure begins: only such a one a later delivery lifts. */
export const PERMANENT_FAILURE_REASON = 'permanent delivery failure: ';
