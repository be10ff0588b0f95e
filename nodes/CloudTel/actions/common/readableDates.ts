import type { IDataObject } from 'n8n-workflow';

/** The provider's fields that hold Unix seconds (interface.md: Created, Schedule; callbacks: Timestamp), each with the name of its ISO twin. */
const ISO_NAMES = new Map([
	['Created', 'CreatedIso'],
	['Schedule', 'ScheduleIso'],
	['Timestamp', 'TimestampIso'],
]);

// The messages of one batch answer mostly share their Created second: the last date made
// is kept, as formatting a Date was the dearest part of Send Batch's output (10,000 items).
let lastSeconds: number | undefined;
let lastIso = '';

function isoOf(seconds: number): string {
	if (seconds !== lastSeconds) {
		lastIso = new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
		lastSeconds = seconds;
	}
	return lastIso;
}

/** `out[key] = value` as a spread writes it: an own `__proto__` key stays a field, not the prototype. */
function put(out: IDataObject, key: string, value: IDataObject[string]): void {
	if (key === '__proto__')
		Object.defineProperty(out, key, {
			value,
			enumerable: true,
			writable: true,
			configurable: true,
		});
	else out[key] = value;
}

function isDate(key: string, value: unknown): value is number {
	return typeof value === 'number' && Number.isFinite(value) && ISO_NAMES.has(key);
}

/**
 * Beside each Unix-seconds field, the same moment as an ISO 8601 date in UTC under the
 * field's name plus `Iso` (`Created: 1764018000` gets `CreatedIso: "2025-11-24T21:00:00Z"`),
 * so a person can read it and expressions can still compute with the number.
 *
 * With `into`, the fields are written into it (later ones win, as `{...into, ...json}`
 * would) and it is returned: one object per output item rather than a copy and a spread.
 * Without, `json` itself comes back when it has no such field.
 */
export function withReadableDates(json: IDataObject, into?: IDataObject): IDataObject {
	const keys = Object.keys(json);
	if (into === undefined) {
		let found = false;
		for (const key of keys) if (isDate(key, json[key])) found = true;
		if (!found) return json;
	}
	const out: IDataObject = into ?? {};
	for (const key of keys) {
		const value = json[key];
		put(out, key, value);
		if (isDate(key, value)) {
			const iso = ISO_NAMES.get(key)!;
			if (!(iso in json)) put(out, iso, isoOf(value));
		}
	}
	return out;
}
