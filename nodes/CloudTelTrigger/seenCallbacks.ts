import type { IDataObject } from 'n8n-workflow';

const REMEMBERED = 1000;

/**
 * The provider retries a callback that was not answered 2xx, so the same MessageSid and
 * event can arrive twice (contract.md). Remembers the most recent keys in the
 * workflow's static data and reports whether this one was seen already.
 */
export function seenBefore(staticData: IDataObject, key: string): boolean {
	const seen = Array.isArray(staticData.seenCallbacks) ? (staticData.seenCallbacks as string[]) : [];
	if (seen.includes(key)) return true;
	staticData.seenCallbacks = [...seen, key].slice(-REMEMBERED);
	return false;
}
