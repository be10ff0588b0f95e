import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GSM_PART, GSM_SINGLE, UCS2_PART, UCS2_SINGLE, countSegments, isGsm7 } from '../../../api';

const a = (n: number) => 'a'.repeat(n);
const zh = (n: number) => 'ж'.repeat(n);
const EMOJI = '😀';
const GSM_BASIC =
	'@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM_EXTENSION = ['€', '{', '}', '[', ']', '~', '\\', '|', '^', '\f'];

describe('segment sizes', () => {
	it('are 160/153 for GSM-7 and 70/67 for UCS-2', () => {
		expect([GSM_SINGLE, GSM_PART, UCS2_SINGLE, UCS2_PART]).toEqual([160, 153, 70, 67]);
	});
});

describe('GSM-7 alphabet', () => {
	it('has 127 basic characters (128 less the escape), each costing one septet', () => {
		expect([...GSM_BASIC]).toHaveLength(127);
		for (const c of GSM_BASIC)
			expect(countSegments(c), JSON.stringify(c)).toEqual({
				encoding: 'GSM-7',
				units: 1,
				segments: 1,
			});
	});

	it.each(GSM_EXTENSION.map((c) => [c]))('extension character %j costs two septets', (c) => {
		expect(countSegments(c)).toEqual({ encoding: 'GSM-7', units: 2, segments: 1 });
		expect(countSegments(c.repeat(80))).toEqual({ encoding: 'GSM-7', units: 160, segments: 1 });
		expect(countSegments(c.repeat(80) + 'a')).toEqual({
			encoding: 'GSM-7',
			units: 161,
			segments: 2,
		});
	});

	it.each(['ç', 'á', 'ê', '`', 'ж', 'ő', '\t', '\u00a0', '’', '“', EMOJI, '\uD83D'])(
		'%j is not GSM-7 and makes the message UCS-2',
		(c) => {
			expect(isGsm7(c)).toBe(false);
			expect(countSegments(`hello ${c}`).encoding).toBe('UCS-2');
		},
	);
});

describe('countSegments, both sides of every bound', () => {
	it.each([
		['empty', '', 'GSM-7', 0, 1],
		['160 GSM', a(160), 'GSM-7', 160, 1],
		['161 GSM', a(161), 'GSM-7', 161, 2],
		['306 GSM (2 x 153)', a(306), 'GSM-7', 306, 2],
		['307 GSM', a(307), 'GSM-7', 307, 3],
		['459 GSM (3 x 153)', a(459), 'GSM-7', 459, 3],
		['460 GSM', a(460), 'GSM-7', 460, 4],
		['1600 GSM', a(1600), 'GSM-7', 1600, 11],
		['158 + € = 160 septets', a(158) + '€', 'GSM-7', 160, 1],
		['159 + € = 161 septets', a(159) + '€', 'GSM-7', 161, 2],
		['152 + € fits one part (154 septets, one segment)', a(152) + '€', 'GSM-7', 154, 1],
		['152 + € + 7: the pair moves to part 2', a(152) + '€' + a(7), 'GSM-7', 161, 2],
		['152 + € + 151 = 305 septets in 152 | 153', a(152) + '€' + a(151), 'GSM-7', 305, 2],
		[
			'152 + € + 152 = 306 septets, but the pair cannot split: 3',
			a(152) + '€' + a(152),
			'GSM-7',
			306,
			3,
		],
		['153 + € + 151 = 306 septets in 153 | 153', a(153) + '€' + a(151), 'GSM-7', 306, 2],
		['€ x 153 = 306 septets, 76 pairs a part: 3', '€'.repeat(153), 'GSM-7', 306, 3],
		['70 UCS-2', zh(70), 'UCS-2', 70, 1],
		['71 UCS-2', zh(71), 'UCS-2', 71, 2],
		['134 UCS-2 (2 x 67)', zh(134), 'UCS-2', 134, 2],
		['135 UCS-2', zh(135), 'UCS-2', 135, 3],
		['201 UCS-2 (3 x 67)', zh(201), 'UCS-2', 201, 3],
		['202 UCS-2', zh(202), 'UCS-2', 202, 4],
		['35 emoji = 70 units', EMOJI.repeat(35), 'UCS-2', 70, 1],
		['35 emoji + 1 = 71 units', EMOJI.repeat(35) + 'a', 'UCS-2', 71, 2],
		['68 + emoji = 70 units', zh(68) + EMOJI, 'UCS-2', 70, 1],
		['69 + emoji = 71 units', zh(69) + EMOJI, 'UCS-2', 71, 2],
		['66 + emoji + 65 = 133 units in 66 | 67', zh(66) + EMOJI + zh(65), 'UCS-2', 133, 2],
		[
			'66 + emoji + 66 = 134 units, but the pair cannot split: 3',
			zh(66) + EMOJI + zh(66),
			'UCS-2',
			134,
			3,
		],
		['67 + emoji + 65 = 134 units in 67 | 67', zh(67) + EMOJI + zh(65), 'UCS-2', 134, 2],
		['160 GSM + one UCS-2 character', a(160) + 'ж', 'UCS-2', 161, 3],
		['€ in UCS-2 is one unit', zh(69) + '€', 'UCS-2', 70, 1],
		['a lone surrogate is one unit', zh(69) + '\uD83D', 'UCS-2', 70, 1],
		['a lone surrogate never pairs with what follows', zh(66) + '\uDE00' + zh(67), 'UCS-2', 134, 2],
	])('%s', (_label, text, encoding, units, segments) => {
		expect(countSegments(text)).toEqual({ encoding, units, segments });
	});
});

describe('segment properties', () => {
	// Lone surrogates too: a pair must be counted only when both halves are there.
	const nonGsm = fc.constantFrom('ж', 'ç', '’', EMOJI, '👍🏽', '\uD83D', '\uDE00');
	const unit = fc.oneof(
		{ weight: 6, arbitrary: fc.constantFrom(...GSM_BASIC) },
		{ weight: 2, arbitrary: fc.constantFrom(...GSM_EXTENSION) },
		{ weight: 1, arbitrary: nonGsm },
	);
	// size 'max': lengths spread over the whole range, so multi-part messages are common.
	const text = fc.string({ unit, maxLength: 400, size: 'max' });
	const gsmUnit = fc.oneof(fc.constantFrom(...GSM_BASIC), fc.constantFrom(...GSM_EXTENSION));
	const gsmText = fc.string({ unit: gsmUnit, maxLength: 600, size: 'max' });
	const multiPartGsm = fc.string({
		unit: gsmUnit,
		minLength: GSM_SINGLE + 1,
		maxLength: 1600,
		size: 'max',
	});
	const multiPartUcs2 = fc
		.tuple(fc.string({ unit, minLength: UCS2_SINGLE, maxLength: 800, size: 'max' }), nonGsm)
		.map(([s, c]) => s + c);

	it('appending characters never decreases the segment count', () => {
		fc.assert(
			fc.property(
				text,
				text,
				(s, more) => countSegments(s + more).segments >= countSegments(s).segments,
			),
		);
	});

	it('appending one character at a time never decreases it either', () => {
		fc.assert(
			fc.property(text, (s) => {
				let last = 0;
				for (let i = 0; i <= s.length; i++) {
					const n = countSegments(s.slice(0, i)).segments;
					if (n < last) return false;
					last = n;
				}
				return true;
			}),
			{ numRuns: 50 },
		);
	});

	it('GSM-only text never reports UCS-2', () => {
		fc.assert(fc.property(gsmText, (s) => isGsm7(s) && countSegments(s).encoding === 'GSM-7'));
	});

	it('multi-part GSM: segments * 153 >= septets, and each full part holds at least 152', () => {
		fc.assert(
			fc.property(multiPartGsm, (s) => {
				const { units, segments } = countSegments(s);
				return segments * GSM_PART >= units && (segments - 1) * (GSM_PART - 1) < units;
			}),
		);
	});

	it('multi-part UCS-2: segments * 67 >= units, and each full part holds at least 66', () => {
		fc.assert(
			fc.property(multiPartUcs2, (s) => {
				const { units, segments } = countSegments(s);
				return segments * UCS2_PART >= units && (segments - 1) * (UCS2_PART - 1) < units;
			}),
		);
	});

	it('single-part text fits in one segment exactly when within 160 septets / 70 units', () => {
		fc.assert(
			fc.property(text, (s) => {
				const { encoding, units, segments } = countSegments(s);
				const limit = encoding === 'GSM-7' ? GSM_SINGLE : UCS2_SINGLE;
				return (segments === 1) === units <= limit;
			}),
		);
	});

	it('UCS-2 units are UTF-16 code units (a surrogate pair counts twice)', () => {
		fc.assert(fc.property(text, nonGsm, (s, c) => countSegments(s + c).units === (s + c).length));
	});
});
