import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../../sandbox/src';
import { claimedChunks } from '../../../worker/src/campaign/claimedChunks';
import { runCampaign } from '../../../worker/src/campaign/runCampaign';
import { SilentReporter } from '../../../worker/src/daemon/api/silentReporter';
import { dbLocation } from '../../../worker/src/storage/dbLocation';
import { SPEND_KEY } from '../../../worker/src/storage/guardSql';
import type { Ledger } from '../../../worker/src/storage/ledger';
import { openLedger, sharedLedgerOf } from '../../../worker/src/storage/openStores';
import { newDatabase } from '../../support/postgres/database';
import { numbersCsv, sandboxMessages, tempDir } from '../worker/harness';

// Postgres only: several workers share a cap only there.
let sandbox: RunningSandbox;
let db: string;
const ledgers: Ledger[] = [];
beforeAll(async () => {
	// Answers take a moment, so both workers have chunks on their way when the cap nears.
	sandbox = await startSandbox({ port: 0, receiptDelayMs: 60_000, latencyMs: 20 });
	db = await newDatabase('cap2');
}, 60_000);
afterAll(async () => {
	await Promise.allSettled(ledgers.map((l) => l.close()));
	await sandbox?.close();
});

describe('a spend cap shared by two workers on one Postgres', () => {
	it('together they hand over exactly what the cap pays for, never a message past it, and both stop paused', async () => {
		const csv = join(tempDir(), 'list.csv');
		writeFileSync(csv, numbersCsv(400));
		const run = async () => {
			const ledger = await openLedger(dbLocation(db));
			ledgers.push(ledger);
			return runCampaign(
				{
					spec: {
						name: 'shared',
						csvPath: csv,
						text: 'Hi {{Name}}',
						propertySid: sandbox.demo.PropertySid,
					},
					provider: {
						baseUrl: sandbox.url,
						accountSid: sandbox.demo.AccountSid,
						authToken: sandbox.demo.AuthToken,
					},
					rate: 0,
					batchSize: 7,
					concurrency: 4,
					// One segment a message: 1.50 pays for 150 of the 400.
					pricePerSegment: 0.01,
					maxCost: 1.5,
				},
				{
					ledger,
					reporter: new SilentReporter(),
					chunks: claimedChunks(sharedLedgerOf(ledger)!),
				},
			);
		};
		const [a, b] = await Promise.all([run(), run()]);
		const sent = (await sandboxMessages(sandbox)).filter((m) =>
			m.ExternalId?.startsWith('shared:'),
		);
		expect(new Set(sent.map((m) => m.ExternalId)).size).toBe(sent.length);
		expect(sent).toHaveLength(150);
		expect([a.stop, b.stop]).toEqual(['paused', 'paused']);
		expect(a.pausedBy ?? b.pausedBy).toBe('spend-cap');
		expect(await ledgers[0].spent(SPEND_KEY + 'shared')).toBe(1_500_000);
		expect((await ledgers[0].counts('shared')).rows).toMatchObject({
			accepted: 150,
			pending: 250,
			submitting: 0,
		});
	});
});
