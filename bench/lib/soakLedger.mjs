// Reads the soak's ledger, a Postgres URL or a SQLite file, with plain SQL both accept.
import Database from 'better-sqlite3';
import pg from 'pg';

export function soakLedger(db) {
	if (db.startsWith('postgres')) {
		return async (text) => {
			const c = new pg.Client({ connectionString: db });
			await c.connect();
			try {
				return (await c.query(text)).rows;
			} finally {
				await c.end();
			}
		};
	}
	return async (text) => {
		const file = new Database(db, { readonly: true, fileMustExist: true });
		try {
			return file.prepare(text).all();
		} finally {
			file.close();
		}
	};
}
