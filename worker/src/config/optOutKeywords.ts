import { beginsWith, replyWords } from './replyWords';

/**
 * Replies that always take the sender off every later campaign, whatever the rules say.
 * Matched at the start of the reply, punctuation dropped, in any case: "Stop.", "STOP ALL",
 * "Unsubscribe me" and "opt-out" opt out; "please don't stop" does not.
 */
export const OPT_OUT_KEYWORDS: readonly string[] = [
	'STOP',
	'STOPALL',
	'UNSUBSCRIBE',
	'END',
	'QUIT',
	'CANCEL',
	'OPTOUT',
	'OPT OUT',
	// The US TCPA revocation rule (April 2025) names REVOKE beside the words above.
	'REVOKE',
	// Stop in the languages of the provider's countries: French, Spanish, Portuguese, Italian, German.
	'ARRET',
	'ALTO',
	'PARAR',
	'BASTA',
	'STOPP',
];

/** The replies that put a sender back. */
export const OPT_IN_KEYWORDS: readonly string[] = ['START', 'UNSTOP'];

export interface OptOutKeywords {
	optOut: readonly string[];
	optIn: readonly string[];
}

export interface OptOutIntent {
	intent: 'optOut' | 'optIn';
	/** The keyword the reply began with, as listed. */
	keyword: string;
}

/** A keyword as the words it is made of: "opt-out" and "OPT OUT" are both OPT, OUT. */
export function keywordWords(keyword: string): string[] {
	return replyWords(keyword);
}

/**
 * The built-in lists, plus the config's. The longest keyword is tried first, so a phrase
 * a config adds is not shadowed by a shorter keyword it begins with.
 */
export function optOutMatcher(
	extra: Partial<OptOutKeywords> = {},
): (text: string) => OptOutIntent | undefined {
	const entries = [
		...[...OPT_OUT_KEYWORDS, ...(extra.optOut ?? [])].map((keyword) => ({
			intent: 'optOut' as const,
			keyword,
			words: keywordWords(keyword),
		})),
		...[...OPT_IN_KEYWORDS, ...(extra.optIn ?? [])].map((keyword) => ({
			intent: 'optIn' as const,
			keyword,
			words: keywordWords(keyword),
		})),
	].sort((a, b) => b.words.length - a.words.length);
	return (text) => {
		const words = replyWords(text);
		const hit = entries.find((e) => beginsWith(words, e.words));
		return hit && { intent: hit.intent, keyword: hit.keyword.toUpperCase() };
	};
}
