/**
 * SMS segment counting. GSM-7: 160 septets in one part, 153 per part when split; the
 * extension table costs two septets (escape + character). Anything outside GSM-7 makes
 * the whole message UCS-2: 70 UTF-16 units in one part, 67 per part. A part never splits
 * an escape pair or a surrogate pair, so packing is greedy by whole characters.
 */

export type Encoding = 'GSM-7' | 'UCS-2';

export interface SegmentCount {
	encoding: Encoding;
	/** Septets for GSM-7, UTF-16 code units for UCS-2. */
	units: number;
	segments: number;
}

const GSM_BASIC =
	'@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM_EXTENSION = '\f^{}\\[~]|€';

/** Septet cost per UTF-16 unit: 1 basic, 2 extension, 0 not in GSM-7. */
const COST = new Uint8Array(65536);
for (const c of GSM_BASIC) COST[c.charCodeAt(0)] = 1;
for (const c of GSM_EXTENSION) COST[c.charCodeAt(0)] = 2;

export const GSM_SINGLE = 160;
export const GSM_PART = 153;
export const UCS2_SINGLE = 70;
export const UCS2_PART = 67;

export function isGsm7(text: string): boolean {
	for (let i = 0; i < text.length; i++) if (COST[text.charCodeAt(i)] === 0) return false;
	return true;
}

/** Greedy packing by whole characters, so no part ends between two halves of a pair. */
function packParts(
	text: string,
	part: number,
	width: (i: number) => number,
	step: (i: number) => number,
): number {
	let parts = 1;
	let used = 0;
	for (let i = 0; i < text.length; i += step(i)) {
		const w = width(i);
		if (used + w > part) {
			parts++;
			used = 0;
		}
		used += w;
	}
	return parts;
}

function isHighSurrogatePair(text: string, i: number): boolean {
	const c = text.charCodeAt(i);
	if (c < 0xd800 || c > 0xdbff || i + 1 >= text.length) return false;
	const d = text.charCodeAt(i + 1);
	return d >= 0xdc00 && d <= 0xdfff;
}

export function countSegments(text: string): SegmentCount {
	let septets = 0;
	let gsm = true;
	for (let i = 0; i < text.length; i++) {
		const c = COST[text.charCodeAt(i)];
		if (c === 0) {
			gsm = false;
			break;
		}
		septets += c;
	}
	if (gsm) {
		const segments =
			septets <= GSM_SINGLE
				? 1
				: packParts(
						text,
						GSM_PART,
						(i) => COST[text.charCodeAt(i)],
						() => 1,
					);
		return { encoding: 'GSM-7', units: septets, segments };
	}
	const units = text.length;
	const pair = (i: number) => (isHighSurrogatePair(text, i) ? 2 : 1);
	const segments = units <= UCS2_SINGLE ? 1 : packParts(text, UCS2_PART, pair, pair);
	return { encoding: 'UCS-2', units, segments };
}
