import type { IDataObject } from 'n8n-workflow';

/** The provider's fields that hold Unix seconds (interface.md: Created, Schedule; callbacks: Timestamp). */
const UNIX_SECONDS = new Set(['Created', 'Schedule', 'Timestamp']);

/**
 * Beside each Unix-seconds field, the same moment as an ISO 8601 date in UTC under the
 * field's name plus `Iso` (`Created: 1764018000` gets `CreatedIso: "2025-11-24T21:00:00Z"`),
 * so a person can read it and expressions can still compute with the number.
 */
export function withReadableDates(json: IDataObject): IDataObject {
	let found = false;
	for (const key of Object.keys(json)) if (UNIX_SECONDS.has(key) && typeof json[key] === 'number') found = true;
	if (!found) return json;
	const out: IDataObject = {};
	for (const [key, value] of Object.entries(json)) {
		out[key] = value;
		if (UNIX_SECONDS.has(key) && typeof value === 'number' && Number.isFinite(value) && !(`${key}Iso` in json)) {
			out[`${key}Iso`] = new Date(value * 1000).toISOString().replace('.000Z', 'Z');
		}
	}
	return out;
}
