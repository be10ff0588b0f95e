import { lostConnection } from './postgres/pgDatabase';

/** SQLite's answers for a disk or a lock in the way, not for a statement that is wrong. */
const SQLITE_FAULT = /^SQLITE_(BUSY|LOCKED|FULL|IOERR|CANTOPEN|PROTOCOL|NOMEM)/;

/** Work stopped because the store failed under it, said in words. */
export class StoreFault extends Error {}

/**
 * Whether an error is the store's trouble (a Postgres that went away, a SQLite disk that
 * is full or failing, a lock held too long) rather than a mistake: work it stopped is
 * worth doing again once the store answers. Follows `cause`, as FatalError keeps it.
 */
export function isStoreFault(error: unknown): boolean {
	let e = error as { code?: unknown; cause?: unknown } | undefined;
	for (let depth = 0; e && depth < 5; depth++, e = e.cause as typeof e) {
		if (e instanceof StoreFault) return true;
		if (typeof e.code === 'string' && SQLITE_FAULT.test(e.code)) return true;
		if (lostConnection(e)) return true;
	}
	return false;
}
