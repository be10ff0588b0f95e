import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { dbLocation, type DbLocation } from '../../../worker/src/storage/dbLocation';

/** The URL of a database of its own in the test run's Postgres, made empty for the caller. */
export async function newDatabase(prefix = 'cloudtel'): Promise<string> {
	const admin = inject('postgresUrl');
	const name = `${prefix.replace(/[^a-z0-9_]/gi, '_').toLowerCase()}_${randomBytes(4).toString('hex')}`;
	const client = new pg.Client({ connectionString: admin });
	await client.connect();
	try {
		await client.query(`CREATE DATABASE ${name}`);
	} finally {
		await client.end();
	}
	const url = new URL(admin);
	url.pathname = `/${name}`;
	return url.toString();
}

/** Runs one statement against the database at `url`, as a person with psql would. */
export async function sql<T extends pg.QueryResultRow = pg.QueryResultRow>(
	url: string,
	text: string,
	values: unknown[] = [],
): Promise<T[]> {
	const client = new pg.Client({ connectionString: url });
	await client.connect();
	try {
		return (await client.query<T>(text, values)).rows;
	} finally {
		await client.end();
	}
}

/** The store location of a postgres:// URL, as the worker's Postgres openers take it. */
export function postgresAt(url: string): Extract<DbLocation, { kind: 'postgres' }> {
	const location = dbLocation(url);
	if (location.kind !== 'postgres') throw new Error(`not a postgres:// URL: ${url}`);
	return location;
}
