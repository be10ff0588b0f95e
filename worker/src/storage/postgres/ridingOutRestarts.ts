import { FatalError } from '../../errors';
import { lostConnection } from './pgDatabase';

/** How long a campaign run waits for its Postgres to come back before it stops (resumable); the environment may shorten it, for a test. */
export const DB_OUTAGE_LIMIT_MS =
	Number(process.env.CLOUDTEL_DB_OUTAGE_LIMIT_MS) > 0
		? Number(process.env.CLOUDTEL_DB_OUTAGE_LIMIT_MS)
		: 120_000;
const FIRST_RETRY_MS = 250;
const MAX_RETRY_MS = 5_000;

/**
 * A Postgres ledger that rides out a restart of its database: a call that fails because
 * the connection went away (the server restarting, an administrator's command, a refused
 * connection) is made again, with back-off, once the database answers, for up to
 * DB_OUTAGE_LIMIT_MS; after that it fails with one line saying so. Each of the ledger's
 * calls is one transaction, so one that failed on a lost connection wrote nothing and is
 * safe to make again. Sending waits meanwhile, so a chunk whose mark could not be written
 * sends nothing and stays pending, never uncertain. Iterators are not retried: they read,
 * and are read again by a resumed run.
 */
export function ridingOutRestarts<L extends object>(
	ledger: L,
	onRetry: (waitingMs: number, error: Error) => void,
	limitMs = DB_OUTAGE_LIMIT_MS,
): L {
	return new Proxy(ledger, {
		get(target, property, receiver) {
			const value: unknown = Reflect.get(target, property, receiver);
			if (typeof value !== 'function') return value;
			const method = value as (...args: unknown[]) => unknown;
			return (...args: unknown[]) => {
				const first = method.apply(target, args);
				if (!(first instanceof Promise)) return first;
				return first.catch((error: unknown) =>
					lostConnection(error)
						? retry(
								() => method.apply(target, args) as Promise<unknown>,
								error as Error,
								onRetry,
								limitMs,
							)
						: Promise.reject(error),
				);
			};
		},
	});
}

async function retry(
	call: () => Promise<unknown>,
	firstError: Error,
	onRetry: (waitingMs: number, error: Error) => void,
	limitMs: number,
): Promise<unknown> {
	const started = Date.now();
	let delay = FIRST_RETRY_MS;
	let last = firstError;
	for (;;) {
		onRetry(Date.now() - started, last);
		await new Promise((r) => setTimeout(r, delay));
		delay = Math.min(MAX_RETRY_MS, delay * 2);
		try {
			return await call();
		} catch (error) {
			if (!lostConnection(error)) throw error;
			last = error as Error;
			if (Date.now() - started >= limitMs) {
				throw new FatalError(
					`Postgres did not answer for ${Math.round(limitMs / 1000)} s (${last.message.split('\n')[0]}); the rows not sent stay pending: run the same command again to resume`,
					1,
					{ cause: error },
				);
			}
		}
	}
}
