import { replyWords } from './replyWords';

/**
 * Replies that are not a keyword but plainly ask to stop: the US TCPA rule (April 2025)
 * makes an opt-out by "any reasonable means" binding. Matched as whole words anywhere in
 * the reply, in any case, accents and punctuation dropped; the list is kept here, in one
 * place, so that a reviewer sees every phrase that takes a number off.
 */
export const REASONABLE_MEANS_PHRASES: readonly string[] = [
	'remove me',
	'remove my number',
	'take me off',
	'take my number off',
	"don't text me",
	'dont text me',
	'do not text me',
	"don't message me",
	'do not message me',
	"don't contact me",
	'do not contact me',
	'stop texting',
	'stop messaging',
	'stop sending',
	'stop contacting',
	'no more messages',
	'no more texts',
	'leave me alone',
	'wrong number',
	'unsubscribe me',
	'opt me out',
];

/** A word before a phrase that turns it around: "please don't remove me", "never stop sending". */
const NEGATIONS = new Set(["DON'T", 'DONT', 'DO NOT', 'NOT', 'NEVER']);

/** Words with one kind of apostrophe: phones send "don’t" as often as "don't". */
const words = (text: string) => replyWords(text).map((w) => w.replace(/’/g, "'"));

const PHRASES = REASONABLE_MEANS_PHRASES.map((phrase) => ({ phrase, words: words(phrase) }));

/** The phrase the reply asks to stop with, as listed; undefined when it does not. */
export function reasonableMeansPhrase(text: string): string | undefined {
	const said = words(text);
	for (const { phrase, words: want } of PHRASES)
		for (let i = 0; i + want.length <= said.length; i++) {
			if (!want.every((w, j) => said[i + j] === w)) continue;
			const before = said[i - 1];
			const twoBefore = i >= 2 ? `${said[i - 2]} ${said[i - 1]}` : undefined;
			if (
				(before !== undefined && NEGATIONS.has(before)) ||
				(twoBefore && NEGATIONS.has(twoBefore))
			)
				continue;
			return phrase;
		}
	return undefined;
}
