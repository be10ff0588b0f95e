import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Ledger } from '../../../worker/src/storage/ledger';
import { openLedger } from '../../../worker/src/storage/openStores';
import { cleanupAfterEach } from '../../support/cleanup';
import { allSandboxMessages } from '../../support/sandboxMessages';
import { storeBackends } from '../../support/storeBackends';
import { runCampaign } from '../../support/runCampaign';
import { workerRig } from '../../support/workerRig';
import { cli, writeCsv } from '../worker/harness';
import { until } from '../daemon/harness';

const SECRET = 'retry-secret-0123456789abcdef';
const GOOD = '+61491570101';
/** The sandbox fails these: 0666 as UNDELIVERABLE (passing), 0667 as UNKNOWN_SUBSCRIBER (no such number). */
const SOFT = '+61491570666';
const GONE = '+61491570667';
/** Fails as SOFT does, but opts out before the retry. */
const QUIT = '+61491580666';

const cleanup = cleanupAfterEach();

/**
 * A campaign through a running worker, its receipts from the sandbox: retry-failed sends the
 * UNDELIVERABLE number again, with its text, and never the unknown one; a later campaign
 * skips the unknown number as suppressed. On both backends: it is read from the store.
 */
describe.each(storeBackends())('campaign retry-failed ($name)', (backend) => {
	it('retries 0666 only, with its original text; a later campaign skips 0667 as suppressed', async () => {
		const { sandbox, driver, dir, db, location, callbacks, env } = await workerRig(cleanup, {
			secret: SECRET,
			backend,
			sandbox: { receiptDelayMs: 20 },
		});
		// Opened for each look: a SQLite reader kept open would hold the worker's writes back.
		const reading = async <T>(read: (ledger: Ledger) => Promise<T>): Promise<T> => {
			const ledger = await openLedger(location);
			try {
				return await read(ledger);
			} finally {
				await ledger.close();
			}
		};
		const sentIn = async (name: string) =>
			(await allSandboxMessages(sandbox.url))
				.filter((m) => String(m.ExternalId).startsWith(`${name}:`))
				.map((m) => ({ To: m.To, Text: m.Text }));

		const list = writeCsv(
			dir,
			'spring.csv',
			`Phone,Name\n${GOOD},Gia\n${SOFT},Sol\n${GONE},Gus\n${QUIT},Quin\n`,
		);
		const spring = await runCampaign(sandbox, {
			csv: list,
			db,
			name: 'spring',
			text: 'Hi {{Name}}, spring sale',
			callbacks,
			rate: '0',
			flags: ['--to-column', 'Phone'],
		});
		expect(spring.code, spring.stderr).toBe(0);
		await until(
			() =>
				reading(
					async (ledger) =>
						(await Promise.all([2, 3, 4, 5].map((line) => ledger.delivery('spring', line)))).every(
							Boolean,
						) && (await ledger.isSuppressed(GONE)),
				),
			15_000,
			"every row's receipt, and the unknown number suppressed",
		);

		const quitLeased = (await allSandboxMessages(sandbox.url)).find((m) => m.To === QUIT).From;
		await driver.reply(QUIT, quitLeased, 'STOP');
		await until(() => reading((ledger) => ledger.isSuppressed(QUIT)), 15_000, 'the opt-out');

		const retry = await cli(
			[
				'campaign',
				'retry-failed',
				'--db',
				db,
				'--name',
				'spring',
				'--as',
				'spring-again',
				'--list',
				join(dir, 'again.csv'),
				'--receipt-url',
				`${callbacks}/receipts`,
				'--rate',
				'0',
			],
			env,
		);
		expect(retry.code, retry.stderr).toBe(0);
		expect(await sentIn('spring-again')).toEqual([{ To: SOFT, Text: 'Hi Sol, spring sale' }]);
		// Not even a suppressed row: the opted-out number is not in the retry at all.
		const again: (string | undefined)[] = [];
		await reading(async (ledger) => {
			for await (const r of ledger.rows('spring-again')) again.push(r.to);
		});
		expect(again).toEqual([SOFT]);

		const later = writeCsv(dir, 'summer.csv', `Phone,Name\n${GOOD},Gia\n${GONE},Gus\n`);
		const summer = await runCampaign(sandbox, {
			csv: later,
			db,
			name: 'summer',
			text: 'Hi {{Name}}, summer sale',
			rate: '0',
			flags: ['--to-column', 'Phone'],
		});
		expect(summer.code, summer.stderr).toBe(0);
		expect((await sentIn('summer')).map((m) => m.To)).toEqual([GOOD]);
		const rows: { to?: string; status: string }[] = [];
		await reading(async (ledger) => {
			for await (const r of ledger.rows('summer')) rows.push({ to: r.to, status: r.status });
		});
		expect(rows).toEqual([
			{ to: GOOD, status: 'accepted' },
			{ to: GONE, status: 'suppressed' },
		]);
		const contact = await cli(['contact', 'show', GONE, '--db', db]);
		expect(contact.stdout).toContain('UNKNOWN_SUBSCRIBER');
	}, 60_000);
});
