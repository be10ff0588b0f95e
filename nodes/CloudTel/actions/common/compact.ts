/**
 * Drops what the user left empty, so a request carries only the fields they set: blank
 * strings, undefined, and empty arrays or objects (n8n's defaults for unset fields).
 */
export function compact<T extends object>(fields: Record<string, unknown>): T {
	const out: Record<string, unknown> = {};
	for (const [key, value] of Object.entries(fields)) {
		if (value === undefined || value === null) continue;
		if (typeof value === 'string' && value.trim() === '') continue;
		if (Array.isArray(value) && value.length === 0) continue;
		out[key] = value;
	}
	return out as T;
}
