import { afterEach, describe, expect, it } from 'vitest';
import { CallbackProcessor } from '../../../worker/src/daemon/callbacks/3-processor/callbackProcessor';
import type { ForwardOutbox } from '../../../worker/src/daemon/callbacks/6-forward/forwardOutbox';
import { JsonLogger } from '../../../worker/src/daemon/jsonLogger';
import { dbLocation } from '../../../worker/src/storage/dbLocation';
import type { DaemonStore } from '../../../worker/src/storage/daemonStore';
import type { CallbackLedger, LedgerReader } from '../../../worker/src/storage/ledger';
import { openDaemonStore } from '../../../worker/src/storage/openStores';
import { newDatabase } from '../../support/postgres/database';
import { until } from '../daemon/harness';

// Issue 33: two workers on one Postgres both processed every stored callback (double work,
// hundreds of "no campaign row" warnings). Two workers' processors on one store here.

const stores: DaemonStore[] = [];
afterEach(async () => {
	for (const s of stores.splice(0)) await s.close();
});

const receipt = (i: number) => ({
	kind: 'receipt' as const,
	data: {
		MessageSid: `SM${i}`,
		AccountSid: 'AC1',
		PropertySid: 'PR1',
		From: 'Shop',
		To: '+61491570156',
		Status: 'Delivered' as const,
		ErrorCode: '',
		ExternalId: '',
		Timestamp: 1_700_000_000,
	},
});

describe('callbacks stored by two workers sharing Postgres', () => {
	it('are each processed by one worker only, both workers working the store at once', async () => {
		const location = dbLocation(await newDatabase('claims'));
		const seen: string[] = [];
		const processors = [];
		for (let w = 0; w < 2; w++) {
			const store = await openDaemonStore(location);
			stores.push(store);
			const ledger = {
				recordDelivery: async (r: { messageSid: string }) => {
					seen.push(r.messageSid);
					// A ledger's round trip: the other worker's pass would overlap this one's.
					await new Promise((done) => setImmediate(done));
					return undefined;
				},
			} as unknown as CallbackLedger & Pick<LedgerReader, 'campaign'>;
			processors.push(
				new CallbackProcessor(
					store,
					ledger,
					[],
					{ kick: () => undefined } as unknown as ForwardOutbox,
					new JsonLogger(() => undefined),
				),
			);
		}
		for (let i = 0; i < 300; i++)
			await stores[i % 2].recordEvent(`receipt:SM${i}`, receipt(i), 1_700_000_000_000 + i);
		for (const p of processors) p.start();
		await until(
			async () => (await stores[0].waitingEvents()) === 0,
			30_000,
			'every callback processed',
		);
		await Promise.all(processors.map((p) => p.idle()));
		expect(seen).toHaveLength(300);
		expect(new Set(seen).size).toBe(300);
		// In the order they came: one worker at a time.
		expect(seen).toEqual(Array.from({ length: 300 }, (_, i) => `SM${i}`));
	});
});
