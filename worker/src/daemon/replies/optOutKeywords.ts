/** Replies that always take the sender off every later campaign, whatever the rules say. */
export const OPT_OUT_KEYWORDS: readonly string[] = ['STOP', 'UNSUBSCRIBE', 'END', 'QUIT', 'CANCEL', 'OPTOUT', 'STOPALL'];

/** The reply that puts a sender back. */
export const OPT_IN_KEYWORD = 'START';

/** The whole reply, trimmed, in any case: "stop" opts out, "stop sending me deals" is only text. */
export function optOutIntent(text: string): 'optOut' | 'optIn' | undefined {
	const word = text.trim().toUpperCase();
	if (OPT_OUT_KEYWORDS.includes(word)) return 'optOut';
	if (word === OPT_IN_KEYWORD) return 'optIn';
	return undefined;
}
