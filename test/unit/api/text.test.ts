import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ErrorCodes, TEXT_MAX_CHARACTERS, characterCount, checkText, validateSendMessage } from '../../../api';
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
		fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (s) => characterCount(s) === [...s].length));
	});
});
