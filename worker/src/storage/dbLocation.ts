import { FatalError } from '../errors';

/** Where the worker keeps its state: a SQLite file, or a Postgres database shared by several workers. */
export type DbLocation =
	| { kind: 'sqlite'; path: string }
	| { kind: 'postgres'; url: string; shown: string };

const POSTGRES = /^postgres(ql)?:\/\//i;

export function isPostgresUrl(db: string): boolean {
	return POSTGRES.test(db);
}

/**
 * Reads `--db`, `CLOUDTEL_DB` or the config's `db`. A Postgres URL is checked here, so a
 * typo is named before any connection is tried; `shown` is the URL without its password,
 * for messages and logs.
 */
export function dbLocation(db: string, setting = '--db'): DbLocation {
	if (!isPostgresUrl(db)) return { kind: 'sqlite', path: db };
	let url: URL;
	try {
		url = new URL(db);
	} catch {
		throw new FatalError(
			`${setting}: not a valid Postgres URL (expected postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE)`,
		);
	}
	if (!url.hostname)
		throw new FatalError(
			`${setting}: the Postgres URL names no host (expected postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE)`,
		);
	if (url.port && !(Number(url.port) > 0 && Number(url.port) < 65536))
		throw new FatalError(`${setting}: the Postgres URL's port ${url.port} is not a port number`);
	return { kind: 'postgres', url: db, shown: withoutPassword(url) };
}

export function withoutPassword(url: URL): string {
	const user = url.username ? `${decodeURIComponent(url.username)}@` : '';
	return `${url.protocol}//${user}${url.host}${url.pathname}`;
}
