const SID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Sids are lower-case UUID strings (contract.md, Wire basics). */
export function isSid(value: unknown): value is string {
	return typeof value === 'string' && SID.test(value);
}
