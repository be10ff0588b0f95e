import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { claimedChunks } from '../../../../worker/src/campaign/claimedChunks';
import { sendStage } from '../../../../worker/src/campaign/sendStage';
import type { Ledger } from '../../../../worker/src/storage/ledger';
import { PgLedger } from '../../../../worker/src/storage/postgres/pgLedger';
import { SqliteLedger } from '../../../../worker/src/storage/sqlite/sqliteLedger';
import { openPostgres } from '../../../../worker/src/storage/postgres/pgDatabase';
import { newDatabase, postgresAt } from '../../../support/postgres/database';
import { TokenBucket } from '../../../../worker/src/pacing/tokenBucket';
import type { BatchClient } from '../../../../worker/src/provider/batchClient';
import { SilentReporter } from '../../../../worker/src/daemon/api/silentReporter';
import { tempDir } from '../../../support/tempDir';

const dirs: string[] = [];
afterEach(() => {
	for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A provider that accepts every message it is given, and counts them. */
function acceptingClient() {
	const sent: string[] = [];
	const client = {
		send: async (_property: string, messages: { To: string }[]) => {
			sent.push(...messages.map((m) => m.To));
			return {
				kind: 'answered',
				results: messages.map((_, i) => ({
					MessageSid: `SM${sent.length}-${i}`,
					Status: 'accepted',
					Segments: 1,
				})),
			};
		},
	} as unknown as BatchClient;
	return { client, sent };
}

/** Six pending rows, two of whose numbers replied STOP between the import and the send. */
async function campaignWithLateStops(ledger: Ledger): Promise<void> {
	await ledger.createCampaign({ name: 'c1', csvPath: '/list.csv', propertySid: 'PR1', text: 'Hi' });
	const lines = [2, 3, 4, 5, 6, 7];
	await ledger.importBatch(
		'c1',
		lines.map((line) => ({
			line,
			to: `+6149157015${line}`,
			text: 'Hi',
			segments: 1,
			status: 'pending' as const,
		})),
		7,
	);
	await ledger.addSuppression('+61491570153', 'replied STOP');
	await ledger.addSuppression('+61491570156', 'replied STOP');
}

const stage = (ledger: Ledger, client: BatchClient) => ({
	campaign: 'c1',
	propertySid: 'PR1',
	timing: {},
	ledger,
	client,
	bucket: new TokenBucket(0, 2),
	chunkSize: 2,
	concurrency: 2,
	total: 6,
	reporter: new SilentReporter(),
	controlPollMs: 0,
});

/** The send rate the summary reports is `sent` over the stage's seconds: suppressed rows are not messages sent. */
describe('send stage counters: sent counts only rows the provider answered for, never rows suppressed on the way', () => {
	it('local chunks (one process, SQLite)', async () => {
		const dir = tempDir('cloudtel-counters-');
		dirs.push(dir);
		const ledger = new SqliteLedger(join(dir, 'ledger.db'));
		try {
			await campaignWithLateStops(ledger);
			const { client, sent } = acceptingClient();
			const result = await sendStage(stage(ledger, client));
			expect(result.stop).toBe('finished');
			expect(sent).toHaveLength(4);
			expect(result).toMatchObject({ sent: 4, suppressed: 2 });
			expect((await ledger.counts('c1')).rows).toMatchObject({
				accepted: 4,
				suppressed: 2,
				pending: 0,
			});
		} finally {
			await ledger.close();
		}
	});

	it('claimed chunks (several processes, Postgres)', async () => {
		const ledger = new PgLedger(await openPostgres(postgresAt(await newDatabase('counters'))));
		try {
			await campaignWithLateStops(ledger);
			const { client, sent } = acceptingClient();
			const result = await sendStage({ ...stage(ledger, client), chunks: claimedChunks(ledger) });
			expect(result.stop).toBe('finished');
			expect(sent).toHaveLength(4);
			expect(result).toMatchObject({ sent: 4, suppressed: 2 });
			expect((await ledger.counts('c1')).rows).toMatchObject({
				accepted: 4,
				suppressed: 2,
				pending: 0,
			});
		} finally {
			await ledger.close();
		}
	}, 60_000);
});
