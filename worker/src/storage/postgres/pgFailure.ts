import { FatalError } from '../../errors';

interface PgError {
	code?: string;
	message?: string;
	hostname?: string;
	address?: string;
	port?: number;
}

/**
 * One line for a person, for what goes wrong when a worker first reaches its Postgres:
 * an address that does not answer, a user or database the server does not know, rights
 * that are missing. `shown` is the URL without its password. The driver's error is kept
 * as the cause: one of a database away (isStoreFault) is worth waiting out, a wrong password is not.
 */
export function pgFailure(error: unknown, shown: string): FatalError {
	const e = (error ?? {}) as PgError;
	const detail = (e.message ?? String(error)).split('\n')[0];
	switch (e.code) {
		case 'ECONNREFUSED':
			return new FatalError(
				`cannot connect to Postgres ${shown}: connection refused (is the server running and listening there?)`,
				1,
				{ cause: error },
			);
		case 'ENOTFOUND':
		case 'EAI_AGAIN':
			return new FatalError(
				`cannot connect to Postgres ${shown}: the host name does not resolve`,
				1,
				{ cause: error },
			);
		case 'ETIMEDOUT':
		case 'EHOSTUNREACH':
		case 'ENETUNREACH':
			return new FatalError(
				`cannot connect to Postgres ${shown}: ${e.code === 'ETIMEDOUT' ? 'timed out' : 'unreachable'}`,
				1,
				{ cause: error },
			);
		case '28P01':
		case '28000':
			return new FatalError(
				`Postgres ${shown} refused the login: ${detail} (give the password in the URL or in PGPASSWORD)`,
				1,
				{ cause: error },
			);
		case '3D000':
			return new FatalError(
				`Postgres ${shown}: ${detail}; create it first (createdb) or fix the URL`,
				1,
				{ cause: error },
			);
		case '42501':
			return new FatalError(
				`Postgres ${shown}: the user lacks the rights cloudtel needs (${detail}); grant it CREATE on the schema and rights on cloudtel's tables`,
				1,
				{ cause: error },
			);
		default:
			if (/timeout/i.test(detail))
				return new FatalError(`cannot connect to Postgres ${shown}: timed out`, 1, {
					cause: error,
				});
			return new FatalError(`Postgres ${shown}: ${detail}`, 1, { cause: error });
	}
}
