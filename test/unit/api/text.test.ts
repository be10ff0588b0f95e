import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
	ErrorCodes,
	TEXT_MAX_CHARACTERS,
	characterCount,
	checkText,
	unsendableCharacter,
	validateSendMessage,
} from '../../../api';
import { SEND, ctx, pairs } from './helpers';

const EMOJI = '😀';

describe('Text: 1 to 1600 characters (code points)', () => {
	it('the maximum is 1600', () => {
		expect(TEXT_MAX_CHARACTERS).toBe(1600);
	});

	it.each([
		['one character', 'a', true],
		['1600 characters', 'a'.repeat(1600), true],
		['1601 characters', 'a'.repeat(1601), false],
		['1600 emoji (3200 UTF-16 units)', EMOJI.repeat(1600), true],
		['1601 emoji', EMOJI.repeat(1601), false],
		['1599 letters and an emoji', 'a'.repeat(1599) + EMOJI, true],
		['1600 letters and an emoji', 'a'.repeat(1600) + EMOJI, false],
		['1600 euro signs (3200 septets)', '€'.repeat(1600), true],
		['empty', '', false],
	])('%s', (_label, text, ok) => {
		const v = checkText('Text', text);
		if (ok) expect(v).toBeUndefined();
		else expect(v).toMatchObject({ FieldName: 'Text', ErrorCode: ErrorCodes.InvalidTextLength });
	});

	it.each([
		['a'.repeat(1600), []],
		['a'.repeat(1601), ['Text INVALID_TEXT_LENGTH']],
		[EMOJI.repeat(1600), []],
		['', ['Text FIELD_REQUIRED']],
		['   ', ['Text FIELD_REQUIRED']],
		[' x ', []],
	])('in a send, Text of %# is judged as a whole', (text, expected) => {
		expect(pairs(validateSendMessage({ ...SEND, Text: text }, ctx))).toEqual(expected);
	});

	it('the message says how many characters there were', () => {
		expect(checkText('Text', 'a'.repeat(1601))?.Message).toMatch(/1601/);
	});

	it.each([
		['', 0],
		['abc', 3],
		[EMOJI, 1],
		['👩‍👩‍👧', 5],
		['\uD83D', 1],
		['\uDE00x', 2],
		['a\uD83Db', 3],
	])('characterCount(%j) = %i (lone surrogates count one each)', (text, n) => {
		expect(characterCount(text)).toBe(n);
	});

	it('characterCount equals the number of code points of well-formed text', () => {
		fc.assert(
			fc.property(
				fc.string({ unit: 'binary', maxLength: 200 }),
				(s) => characterCount(s) === [...s].length,
			),
		);
	});
});

describe('Text: characters no message can carry', () => {
	it.each([
		['NUL alone', '\u0000', 1, 'a NUL character (U+0000)'],
		['NUL inside', 'Hi\u0000there', 3, 'a NUL character (U+0000)'],
		[
			'a lone high surrogate at the end',
			'Hi \uD83D',
			4,
			'a lone surrogate (U+D83D, half of a character)',
		],
		[
			'a lone low surrogate first',
			'\uDE00 hi',
			1,
			'a lone surrogate (U+DE00, half of a character)',
		],
		[
			'a high surrogate before a letter',
			`${EMOJI}\uD83Dx`,
			2,
			'a lone surrogate (U+D83D, half of a character)',
		],
		[
			'two high surrogates',
			'\uD83D\uD83D\uDE00',
			1,
			'a lone surrogate (U+D83D, half of a character)',
		],
	])('refuses %s, saying what and where', (_label, text, at, what) => {
		expect(unsendableCharacter(text)).toEqual({ at, what });
		expect(checkText('Text', text)).toEqual({
			FieldName: 'Text',
			ErrorCode: ErrorCodes.InvalidCharacter,
			Message: `Text has ${what} at character ${at}, which no message can carry.`,
		});
		expect(pairs(validateSendMessage({ ...SEND, Text: text }, ctx))).toEqual([
			'Text INVALID_CHARACTER',
		]);
	});

	it.each([
		['emoji', `${EMOJI} ok`],
		['family emoji', '👩‍👩‍👧'],
		['other control characters', 'a\tb\nc\u0001'],
		['U+FFFD', '\uFFFD'],
	])('accepts %s', (_label, text) => {
		expect(checkText('Text', text)).toBeUndefined();
	});

	it('accepts every well-formed text without NUL, refuses every text with one', () => {
		fc.assert(
			fc.property(
				fc.string({ unit: 'grapheme', minLength: 1, maxLength: 100 }),
				(s) => unsendableCharacter(s.replace(/\0/g, '')) === undefined,
			),
		);
		fc.assert(
			fc.property(
				fc.string({ maxLength: 50 }),
				fc.string({ maxLength: 50 }),
				(a, b) => unsendableCharacter(`${a}\0${b}`) !== undefined,
			),
		);
	});
});
