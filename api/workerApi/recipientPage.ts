import { problem, type ApiProblem } from './problem';

/** Recipients in one page: 10,000 keeps a page near 1 to 2 MB of JSON, well under the body cap. */
export const MAX_PAGE_RECIPIENTS = 10_000;
/** Pages are numbered 1..100,000: a billion recipients, more than any one campaign holds. */
export const MIN_PAGE_NUMBER = 1;
export const MAX_PAGE_NUMBER = 100_000;
/** The body of one page may be this large (JSON); beyond it the worker answers 413 `too_large`. */
export const MAX_PAGE_BODY_BYTES = 16 * 1024 * 1024;
/** A column name as in a CSV header; kept short so a page cannot be all keys. */
export const MAX_COLUMN_NAME_LENGTH = 200;
/** Columns of one recipient at most, as a CSV row's fields. */
export const MAX_RECIPIENT_COLUMNS = 200;
/**
 * Distinct columns across all of a campaign's pages: the CSV made from them has one per
 * column for every recipient, so keys that differ from recipient to recipient grew it
 * quadratically (700 recipients of 199 keys of their own: a 294 MB file).
 */
export const MAX_CAMPAIGN_COLUMNS = 100;
/** As a CSV field's limit in `campaign run`. */
export const MAX_VALUE_LENGTH = 100_000;

/** A field of a recipient: what a CSV cell can be once read. */
export type RecipientValue = string | number | boolean | null;
/** One recipient: a flat object whose keys are the columns, as a CSV header names them. */
export type Recipient = Record<string, RecipientValue>;

/**
 * The one field of a recipient that is not a column: where its number's consent came from
 * (`source`, such as "web form 2026-03") and when (`at`, ISO 8601; left out, when it is stored).
 */
export const RECIPIENT_CONSENT_KEY = 'consent';
/** As a consent source a list's column gives. */
export const MAX_CONSENT_SOURCE_LENGTH = 500;

export interface RecipientConsent {
	source: string;
	at?: string;
}

/** A date (2026-03-01) or a date and time with its offset, as ISO 8601 writes them. */
const CONSENT_AT = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2}))?$/;

/** What is wrong with a recipient's `consent`, in words naming the field; undefined when nothing is. */
export function consentProblem(value: unknown, at: string): ApiProblem | undefined {
	const field = `${at}.${RECIPIENT_CONSENT_KEY}`;
	if (value === null) return undefined;
	if (!isPlainObject(value))
		return problem(
			field,
			`${field} must be an object {"source": "...", "at": "2026-03-01T09:00:00Z"}`,
		);
	for (const key of Object.keys(value))
		if (key !== 'source' && key !== 'at')
			return problem(
				`${field}.${key}`,
				`${field}.${key} is not a field of consent (only "source" and "at")`,
			);
	const { source, at: when } = value;
	if (typeof source !== 'string' || source.trim() === '')
		return problem(
			`${field}.source`,
			`${field}.source must be a non-blank string saying where the number consented, such as "web form 2026-03"`,
		);
	if (source.length > MAX_CONSENT_SOURCE_LENGTH)
		return problem(
			`${field}.source`,
			`${field}.source is longer than ${MAX_CONSENT_SOURCE_LENGTH} characters`,
		);
	if (
		when !== undefined &&
		when !== null &&
		(typeof when !== 'string' ||
			!CONSENT_AT.test(when.trim()) ||
			Number.isNaN(Date.parse(when.trim())))
	)
		return problem(
			`${field}.at`,
			`${field}.at must be an ISO 8601 date or date and time with its offset, such as 2026-03-01T09:00:00Z (got ${JSON.stringify(when)})`,
		);
	return undefined;
}

/** A recipient's consent as given, or undefined (none, or null). */
export function recipientConsent(recipient: object): RecipientConsent | undefined {
	const value: unknown = Object.prototype.hasOwnProperty.call(recipient, RECIPIENT_CONSENT_KEY)
		? (recipient as Record<string, unknown>)[RECIPIENT_CONSENT_KEY]
		: undefined;
	return isPlainObject(value) && typeof value.source === 'string'
		? (value as unknown as RecipientConsent)
		: undefined;
}

/** `PUT /api/campaigns/{name}/pages/{page}` body. */
export interface RecipientPage {
	recipients: Recipient[];
}

/** `PUT /api/campaigns/{name}/pages/{page}` answer. */
export interface PageAccepted {
	page: number;
	/** Recipients in this page. */
	recipients: number;
	/** Pages the campaign holds now. */
	pages: number;
	totalRecipients: number;
	/** The same page with the same content was already stored. */
	unchanged?: boolean;
}

/** `PUT /api/campaigns/{name}/csv` answer. */
export interface CsvAccepted {
	/** Data rows of the CSV (the header not counted). */
	rows: number;
	unchanged?: boolean;
}

/** Page numbers are whole numbers 1..100,000; the path gives them as text. */
export function parsePageNumber(value: unknown): number | undefined {
	const n = typeof value === 'string' && /^[0-9]{1,6}$/.test(value) ? Number(value) : value;
	return typeof n === 'number' &&
		Number.isInteger(n) &&
		n >= MIN_PAGE_NUMBER &&
		n <= MAX_PAGE_NUMBER
		? n
		: undefined;
}

export function checkPageNumber(value: unknown, field = 'page'): ApiProblem | undefined {
	if (parsePageNumber(value) !== undefined) return undefined;
	return problem(
		field,
		`${field} must be a whole number from ${MIN_PAGE_NUMBER} to ${MAX_PAGE_NUMBER} (got ${JSON.stringify(value)})`,
	);
}

/** What a recipient's value may be: a CSV cell once read (null is an empty cell). */
export function isRecipientValue(value: unknown): value is RecipientValue {
	return (
		value === null ||
		typeof value === 'string' ||
		typeof value === 'boolean' ||
		(typeof value === 'number' && Number.isFinite(value))
	);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A recipient's shape: a flat object of column: value (its column names and lengths are checkRecipientPage's). */
export function isRecipient(value: unknown): value is Recipient {
	if (!isPlainObject(value)) return false;
	for (const key of Object.keys(value))
		if (
			!isRecipientValue(value[key]) &&
			!(key === RECIPIENT_CONSENT_KEY && consentProblem(value[key], 'recipient') === undefined)
		)
			return false;
	return true;
}

/**
 * A page's shape: `{"recipients": [...]}`, 1 to 10,000 flat objects whose values are
 * strings, numbers, booleans or null. Whether a phone is valid is the campaign's
 * business (an invalid row is counted invalid, as a bad CSV line is), not the page's.
 * At most `limit` problems are listed.
 */
export function checkRecipientPage(body: unknown, limit = 20): ApiProblem[] {
	const problems: ApiProblem[] = [];
	if (!isPlainObject(body))
		return [problem('body', 'body must be a JSON object {"recipients": [...]}')];
	for (const key of Object.keys(body)) {
		if (key !== 'recipients')
			problems.push(problem(key, `${key} is not a field of a page (only "recipients")`));
	}
	const list = body.recipients;
	if (!Array.isArray(list))
		return [...problems, problem('recipients', 'recipients must be an array of objects')];
	if (list.length === 0)
		problems.push(problem('recipients', 'recipients must hold at least one recipient'));
	if (list.length > MAX_PAGE_RECIPIENTS) {
		problems.push(
			problem(
				'recipients',
				`recipients holds ${list.length} recipients; a page holds at most ${MAX_PAGE_RECIPIENTS.toLocaleString('en-US')}`,
			),
		);
		return problems;
	}
	for (let i = 0; i < list.length && problems.length < limit; i++) {
		const r: unknown = list[i];
		const at = `recipients[${i}]`;
		if (!isPlainObject(r)) {
			problems.push(problem(at, `${at} must be an object of column: value`));
			continue;
		}
		const keys = Object.keys(r);
		if (keys.length === 0) problems.push(problem(at, `${at} has no fields`));
		if (keys.length > MAX_RECIPIENT_COLUMNS)
			problems.push(
				problem(at, `${at} has ${keys.length} fields; at most ${MAX_RECIPIENT_COLUMNS}`),
			);
		for (const key of keys) {
			const field = `${at}.${key}`;
			const v = r[key];
			if (key.trim() === '' || key.length > MAX_COLUMN_NAME_LENGTH)
				problems.push(
					problem(
						field,
						`${at} has a column name that is blank or longer than ${MAX_COLUMN_NAME_LENGTH} characters`,
					),
				);
			// A recipient without it would read the member every object has (`constructor`: a function) as its value.
			else if (key in Object.prototype)
				problems.push(
					problem(
						field,
						`${at} has a column named "${key}", the name of a member of every JavaScript object: rename it`,
					),
				);
			else if (key === RECIPIENT_CONSENT_KEY) {
				const wrong = consentProblem(v, at);
				if (wrong) problems.push(wrong);
			} else if (!isRecipientValue(v)) {
				problems.push(
					problem(
						field,
						`${field} must be a string, a number, true, false or null (got ${Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : String(v)})`,
					),
				);
			} else if (typeof v === 'string' && v.length > MAX_VALUE_LENGTH) {
				problems.push(
					problem(
						field,
						`${field} is longer than ${MAX_VALUE_LENGTH.toLocaleString('en-US')} characters`,
					),
				);
			}
			if (problems.length >= limit) break;
		}
	}
	return problems;
}

/** A recipient's value as the CSV cell it stands for: null is an empty cell. */
export function recipientCell(value: RecipientValue | undefined): string {
	return value === null || value === undefined ? '' : String(value);
}
