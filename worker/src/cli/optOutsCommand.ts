import { existsSync } from 'node:fs';
import { FatalError, UsageError } from '../errors';
import { PhoneNormalizer } from '../rows/phoneNormalizer';
import { localTime } from '../schedule/localTime';
import { dbLocation } from '../storage/dbLocation';
import { openLedger } from '../storage/openStores';
import { dbSetting } from './campaignRunCommand';
import { parseFlags } from '../settings/parseFlags';

/**
 * `cloudtel optouts review`: the replies that asked to stop in words of their own, held
 * while `optOut.reasonableMeans` is `review`; `--accept NUMBER` opts it out, `--reject
 * NUMBER` keeps it texted (both recorded in its consent trail).
 */
export async function optOutsCommand(action: string | undefined, argv: string[]): Promise<number> {
	if (action !== 'review')
		throw new UsageError(
			`unknown optouts command ${action === undefined ? '(none)' : JSON.stringify(action)}: use review`,
		);
	const values = parseFlags(argv, {
		db: { type: 'string' },
		json: { type: 'boolean' },
		accept: { type: 'string' },
		reject: { type: 'string' },
		'default-country': { type: 'string' },
	});
	if (values.accept !== undefined && values.reject !== undefined)
		throw new UsageError('give --accept or --reject, not both');
	const given = values.accept ?? values.reject;
	let e164: string | undefined;
	if (given !== undefined) {
		const phone = new PhoneNormalizer(values['default-country']?.toUpperCase()).normalize(given);
		if ('error' in phone)
			throw new UsageError(
				`--${values.accept !== undefined ? 'accept' : 'reject'}: ${phone.error} (got "${given}")`,
			);
		e164 = phone.e164;
	}
	const db = dbLocation(dbSetting(values.db));
	if (db.kind === 'sqlite' && !existsSync(db.path))
		throw new FatalError(`no ledger at ${db.path}: give the --db the worker runs with`);
	const ledger = await openLedger(db);
	try {
		const pending = await ledger.pendingReviews();
		if (e164 === undefined) {
			process.stdout.write(
				values.json
					? JSON.stringify(pending, null, 2) + '\n'
					: pending.length === 0
						? 'no opt-out waits for review\n'
						: pending
								.map((p) => `${p.number}  ${localTime(Math.floor(p.at / 1000))}  ${p.reason}`)
								.join('\n') + '\n',
			);
			return 0;
		}
		const held = pending.filter((p) => p.number === e164);
		if (held.length === 0)
			throw new FatalError(
				`${e164} has no opt-out waiting for review (see cloudtel optouts review)`,
			);
		const reason = held[held.length - 1].reason;
		if (values.accept !== undefined) {
			await ledger.addSuppression(e164, `${reason}, accepted on review`);
			process.stdout.write(`${e164} opted out (${reason}); no later campaign texts it\n`);
		} else {
			await ledger.recordConsent(e164, 'review-rejected', `${reason}, not an opt-out on review`);
			process.stdout.write(`${e164} stays texted: "${reason}" was not an opt-out\n`);
		}
		return 0;
	} finally {
		await ledger.close();
	}
}
