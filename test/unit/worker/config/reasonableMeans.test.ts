import { describe, expect, it } from 'vitest';
import {
	reasonableMeansPhrase,
	REASONABLE_MEANS_PHRASES,
} from '../../../../worker/src/config/reasonableMeans';

describe('reasonable means: a reply that plainly asks to stop', () => {
	const table: [string, string | undefined][] = [
		['Please remove me from this list', 'remove me'],
		['REMOVE ME', 'remove me'],
		['can you take me off your list?', 'take me off'],
		["Don't text me again", "don't text me"],
		['don’t text me again', "don't text me"],
		['dont text me', 'dont text me'],
		['No more messages please', 'no more messages'],
		['Leave me alone!!', 'leave me alone'],
		['wrong number', 'wrong number'],
		['I think you have the wrong number', 'wrong number'],
		['please stop texting me', 'stop texting'],
		["don't stop the deals", undefined],
		["please don't remove me", undefined],
		['do not remove me', undefined],
		['never stop sending these', undefined],
		['remover', undefined],
		['Yes please, Tuesday', undefined],
		['', undefined],
	];
	it.each(table)('%j matches %j', (text, phrase) => {
		expect(reasonableMeansPhrase(text)).toBe(phrase);
	});

	it('every listed phrase matches itself, in any case', () => {
		for (const p of REASONABLE_MEANS_PHRASES)
			expect(reasonableMeansPhrase(`  ${p.toUpperCase()}. `)).toBeDefined();
	});
});
