import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openLedger } from '../../../worker/src/storage/openStores';
import { cleanupAfterEach } from '../../support/cleanup';
import { sql } from '../../support/postgres/database';
import { storeBackends } from '../../support/storeBackends';
import { runCampaign } from '../../support/runCampaign';
import { workerRig } from '../../support/workerRig';
import { cli, writeCsv } from '../worker/harness';
import { tempDir, until } from './harness';

const SECRET = 'erasure-secret-0123456789abcdef';
const OLIVIA = '+61428886573';
/** What the ledger could hold of her number, in any spelling: +61428886573, 61428886573, 0428886573. */
const HER_DIGITS = '428886573';
const HER_TEXT = 'Olivia, winter sale at Bondi';

const cleanup = cleanupAfterEach();

/** Every file under `dir`, its bytes: the database, its WAL and shared memory, the spool. */
function filesUnder(dir: string): { path: string; bytes: Buffer }[] {
	return readdirSync(dir, { recursive: true, encoding: 'utf8' })
		.map((f) => join(dir, f))
		.filter((p) => statSync(p).isFile())
		.map((path) => ({ path, bytes: readFileSync(path) }));
}

/**
 * `contact forget` as a new user tries it: a campaign sent through a
 * running worker, receipts and a reply processed (rows written over and over), then the
 * erasure, and the raw files searched for any byte of her number or her texts.
 */
/** One backend per file (`.sqlite.test.ts`, `.postgres.test.ts`): files run side by side, each well within 60 s. */
export function scenarios(part: 'sqlite' | 'postgres'): void {
	describe.each(storeBackends().filter((b) => b.name === part))(
		'an erased number ($name)',
		(backend) => {
			it('is gone from every file the worker and the CLI wrote, byte for byte; the others are kept', async () => {
				const { sandbox, driver, dir, db, worker, callbacks } = await workerRig(cleanup, {
					secret: SECRET,
					backend,
					sandbox: { receiptDelayMs: 20 },
					config: (dir) => ({ spool: { dir: join(dir, 'spool') } }),
				});
				const location = backend.location();
				const others = Array.from({ length: 6 }, (_, i) => `+614915${String(70000 + i)},Guest${i}`);
				const list = writeCsv(
					tempDir(),
					'winter.csv',
					['Phone,Name', ...others, `0428 886 573,Olivia`].join('\n') + '\n',
				);
				for (const name of ['winter', 'spring']) {
					const run = await runCampaign(sandbox, {
						csv: list,
						db,
						name,
						text: `Hi {{Name}}, ${name} sale at Bondi: 20% off`,
						callbacks,
						rate: '0',
						flags: ['--default-country', 'AU'],
					});
					expect(run.code, run.stderr).toBe(0);
				}
				const hers = (await driver.messages()).find(
					(m) => m.To === OLIVIA && String(m.ExternalId).startsWith('winter:'),
				);
				const reply = await driver.reply(OLIVIA, hers.From, 'Olivia here, see you at Bondi');
				await worker.waitFor(
					(l) => l.msg === 'reply' && l.messageSid === reply,
					15_000,
					'her reply',
				);
				// Every receipt in: her rows were written over by them.
				const ledger = await openLedger(
					location.kind === 'sqlite' ? { kind: 'sqlite', path: db } : location,
				);
				try {
					await until(
						async () => (await ledger.deliveryCounts('spring')).awaitingReceipt === 0 || undefined,
						20_000,
						'every receipt',
					);
				} finally {
					await ledger.close();
				}

				if (backend.name === 'sqlite')
					expect(filesUnder(dir).some((f) => f.bytes.includes(Buffer.from(HER_TEXT)))).toBe(true);
				const forget = await cli(['contact', 'forget', OLIVIA, '--db', db]);
				expect(forget.code, forget.stderr).toBe(0);
				expect(forget.stdout).toContain(`forgot ${OLIVIA}: 2 rows erased`);
				expect((await cli(['contact', 'show', OLIVIA, '--db', db, '--json'])).stdout).toBe(
					JSON.stringify({ number: OLIVIA, events: [] }, null, 2) + '\n',
				);

				if (backend.name === 'sqlite') {
					const files = filesUnder(dir);
					expect(files.map((f) => f.path)).toContain(db);
					for (const f of files) {
						expect(f.bytes.includes(Buffer.from(HER_DIGITS)), `${f.path} holds her number`).toBe(
							false,
						);
						expect(f.bytes.includes(Buffer.from(HER_TEXT)), `${f.path} holds her text`).toBe(false);
						expect(
							f.bytes.includes(Buffer.from('see you at Bondi')),
							`${f.path} holds her reply`,
						).toBe(false);
					}
					// The others are all there still.
					expect(readFileSync(db).includes(Buffer.from('Guest5, spring sale'))).toBe(true);
					expect(forget.stdout).toContain('the freed space overwritten');
				}

				// A test campaign removed to its last byte: its rows, receipts and replies as stored.
				const kept = await cli(['campaign', 'delete', '--name', 'winter', '--db', db, '--force']);
				expect(kept.stdout).toContain('campaign delete --purge');
				const purge = await cli([
					'campaign',
					'delete',
					'--name',
					'spring',
					'--db',
					db,
					'--force',
					'--purge',
				]);
				expect(purge.code, purge.stderr).toBe(0);
				expect(purge.stdout).toContain('purged: its stored callbacks dropped');
				if (backend.name === 'sqlite') {
					for (const f of filesUnder(dir))
						expect(f.bytes.includes(Buffer.from('spring sale')), `${f.path} holds spring`).toBe(
							false,
						);
				} else {
					// Postgres: the rows are gone and the tables that held them vacuumed (README: what
					// Postgres can and cannot promise of the bytes).
					for (const table of ['recipients', 'callback_events', 'consent_events']) {
						const [row] = await sql<{ last_vacuum: Date | null }>(
							db,
							`SELECT last_vacuum FROM pg_stat_user_tables WHERE relname = $1`,
							[table],
						);
						expect(row.last_vacuum, `${table} vacuumed`).not.toBeNull();
					}
					const [{ n }] = await sql<{ n: string }>(
						db,
						`SELECT (SELECT COUNT(*) FROM recipients WHERE to_number LIKE $1 OR text LIKE $2) + (SELECT COUNT(*) FROM callback_events WHERE payload LIKE $3) AS n`,
						[`%${HER_DIGITS}%`, `%${HER_TEXT}%`, '%"spring:%'],
					);
					expect(Number(n)).toBe(0);
				}
			}, 60_000);
		},
	);
}
