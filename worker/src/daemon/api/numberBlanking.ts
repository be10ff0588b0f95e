import { recipientCell, type Recipient } from '../../../../api';
import { PhoneNormalizer } from '../../rows/phoneNormalizer';

/** A run of digits with the punctuation people write numbers with: a candidate for a phone number. */
const CANDIDATE = /\+?\d[\d\s()./-]{4,}\d/g;
/**
 * Kept as they are when a recipient's values are blanked: quotes (a value's quotes are
 * doubled in the CSV, so keeping them keeps its length), the delimiters a CSV may use, and
 * line breaks (the lines after keep their numbers). Every other byte becomes a space.
 */
const KEPT = new Set([0x22, 0x2c, 0x3b, 0x09, 0x7c, 0x0d, 0x0a]);
const SPACE = 0x20;

/**
 * Whether a text holds this number, written as the campaign's engine would read it (E.164,
 * or national for its default country, with spaces, dots or dashes). Every candidate's
 * last digits are compared first: only a likely one is parsed.
 */
export function numberFinder(
	e164: string,
	defaultCountry: string | undefined,
): (text: string) => boolean {
	let normalizer: PhoneNormalizer;
	try {
		normalizer = new PhoneNormalizer(defaultCountry);
	} catch {
		normalizer = new PhoneNormalizer();
	}
	const tail = e164.slice(-6);
	return (text) => {
		for (const candidate of text.match(CANDIDATE) ?? []) {
			if (!candidate.replace(/\D/g, '').endsWith(tail)) continue;
			// Other figures may come before it after a space ("flat 12 0491 570 156"): each ending is tried.
			for (let at = 0; at >= 0; at = candidate.indexOf(' ', at + 1)) {
				const n = normalizer.normalize(candidate.slice(at));
				if ('e164' in n && n.e164 === e164) return true;
			}
		}
		return false;
	};
}

/** Bytes blanked in place: the same length, quotes, delimiters and line breaks where they were. */
export function blankBytes(bytes: Buffer, from = 0, to = bytes.length): void {
	for (let i = from; i < to; i++) if (!KEPT.has(bytes[i])) bytes[i] = SPACE;
}

/** A value blanked as its CSV cell would be: its UTF-8 bytes, each a space but those kept. */
function blankValue(value: Recipient[string]): Recipient[string] {
	if (value === null) return null;
	const bytes = Buffer.from(recipientCell(value), 'utf8');
	blankBytes(bytes);
	return bytes.toString('latin1');
}

/**
 * A page's recipients with the number blanked: the recipients it is sent to (in `toKey`)
 * have every value of theirs turned to spaces, so the row stays where it was (the number
 * empty, the row invalid); a value naming it
 * in another recipient's line is blanked alone, and that recipient is still sent to.
 * Without a column known for the numbers, any recipient naming it is blanked whole.
 * Undefined when none held it.
 */
export function blankRecipients(
	body: string,
	holds: (text: string) => boolean,
	toKey: string | undefined,
): { body: string; blanked: number; mentions: number } | undefined {
	const recipients = JSON.parse(body) as Recipient[];
	let blanked = 0;
	let mentions = 0;
	for (const r of recipients) {
		const naming = Object.keys(r).filter((key) => r[key] !== null && holds(recipientCell(r[key])));
		if (naming.length === 0) continue;
		if (toKey === undefined || naming.includes(toKey)) {
			for (const key of Object.keys(r)) r[key] = blankValue(r[key]);
			blanked++;
		} else {
			for (const key of naming) r[key] = blankValue(r[key]);
			mentions++;
		}
	}
	return blanked + mentions > 0
		? { body: JSON.stringify(recipients), blanked, mentions }
		: undefined;
}

/**
 * Blanks, in place, each whole line of CSV bytes that holds the number (from `from` to
 * `to`, whole lines only). A CSV as uploaded is read as bytes: a line is its physical line.
 * Returns how many lines were blanked.
 */
export function blankCsvLines(
	bytes: Buffer,
	holds: (text: string) => boolean,
	from = 0,
	to = bytes.length,
): number {
	let blanked = 0;
	for (let start = from; start < to; ) {
		let end = bytes.indexOf(0x0a, start);
		end = end === -1 || end >= to ? to : end + 1;
		if (holds(bytes.toString('latin1', start, end))) {
			blankBytes(bytes, start, end);
			blanked++;
		}
		start = end;
	}
	return blanked;
}
