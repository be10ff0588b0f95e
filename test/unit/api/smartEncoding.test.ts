import { describe, expect, it } from 'vitest';
import {
	countSegments,
	GSM7_EQUIVALENTS,
	isGsm7,
	nonGsm7Characters,
	smartEncode,
} from '../../../api';

describe('smart encoding', () => {
	it('replaces typographic quotes, dashes, the ellipsis and odd spaces with GSM-7, and makes a UCS-2 text GSM-7', () => {
		const text =
			'Hi Ann, it\u2019s \u201Cready\u201D \u2013 pick up 9\u00A0am\u2026 see you \u2014 Bob';
		expect(countSegments(text).encoding).toBe('UCS-2');
		const smart = smartEncode(text);
		expect(smart).toBe('Hi Ann, it\'s "ready" - pick up 9 am... see you - Bob');
		expect(countSegments(smart).encoding).toBe('GSM-7');
	});

	it('maps every character of its table to GSM-7 text', () => {
		for (const [from, to] of Object.entries(GSM7_EQUIVALENTS)) {
			expect(isGsm7(from), from).toBe(false);
			expect(isGsm7(to), `${from} -> ${to}`).toBe(true);
			expect(smartEncode(`a${from}b`)).toBe(`a${to}b`);
		}
	});

	it('leaves letters alone: a Spanish text stays UCS-2, as it must', () => {
		const text = 'Hola Mar\u00EDa, tu pedido est\u00E1 listo';
		expect(smartEncode(text)).toBe(text);
		expect(nonGsm7Characters(text)).toEqual(['\u00ED', '\u00E1']);
	});

	it('names the characters outside GSM-7, once each, emoji whole', () => {
		expect(nonGsm7Characters('it\u2019s \u2019 ok \uD83D\uDE00!')).toEqual([
			'\u2019',
			'\uD83D\uDE00',
		]);
		expect(nonGsm7Characters('plain [GSM] \u20AC')).toEqual([]);
	});
});
