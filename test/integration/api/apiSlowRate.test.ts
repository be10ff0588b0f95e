import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../support/cleanup';
import { storeBackends } from '../../support/storeBackends';
import { until } from '../daemon/harness';
import { recipients } from './apiHarness';
import { apiWorkerRig } from './apiRig';

const cleanup = cleanupAfterEach();
const sqlite = storeBackends().filter((b) => b.name === 'sqlite');

/** The state the database holds (a cancel its run still settles is the ledger's until then). */
function storedState(path: string, name: string): string {
	const db = new Database(path, { readonly: true });
	try {
		return (
			db.prepare('SELECT state FROM api_campaigns WHERE name = ?').get(name) as { state: string }
		).state;
	} finally {
		db.close();
	}
}

describe.each(sqlite)('a run waiting on a slow rate ($name)', (backend) => {
	it('refuses a rate under 0.01 and an overflowing price, naming them; at 0.01 a cancel and a SIGTERM end the waiting run at once', async () => {
		const { sandbox, db, start, call } = await apiWorkerRig(backend, cleanup);
		const worker = await start();
		const settings = {
			property: sandbox.demo.PropertySid,
			text: 'Hi {{first_name}}',
			batchSize: 1,
		};
		const tooSlow = await call('PUT', '/campaigns/crawl', { ...settings, rate: 1e-7 });
		expect(tooSlow.status).toBe(400);
		expect(JSON.stringify(tooSlow.body)).toMatch(/rate/);
		expect(JSON.stringify(tooSlow.body)).toMatch(/0\.01/);

		for (const name of ['waits', 'stops']) {
			expect((await call('PUT', `/campaigns/${name}`, { ...settings, rate: 0.01 })).status).toBe(
				201,
			);
			expect(
				(
					await call('PUT', `/campaigns/${name}/pages/1`, {
						recipients: recipients(0, 3, name === 'waits' ? '+614915730' : '+614915731'),
					})
				).status,
			).toBe(200);
			expect((await call('POST', `/campaigns/${name}/start`, { pages: 1 })).status).toBe(202);
		}
		// The first message of each goes at once; the next is 100 s away.
		await until(
			async () =>
				(await call('GET', '/campaigns/waits')).body.campaign.counts.accepted >= 1 &&
				(await call('GET', '/campaigns/stops')).body.campaign.counts.accepted >= 1,
			30_000,
			'the first of each sent',
		);

		// A price whose cost would overflow to Infinity (shown as null) is refused, named.
		const overflow = await call('GET', '/campaigns/waits/report?pricePerSegment=1e308');
		expect(overflow.status).toBe(400);
		expect(JSON.stringify(overflow.body)).toMatch(/pricePerSegment/);

		// "At once": far under the 100 s to the next message (20 s: a loaded CI machine's slack).
		const cancelAt = Date.now();
		expect((await call('POST', '/campaigns/waits/cancel')).status).toBe(200);
		await until(
			async () => storedState(db, 'waits') === 'cancelled',
			20_000,
			'the cancel stored as cancelled',
		);
		expect(Date.now() - cancelAt).toBeLessThan(20_000);

		const stopAt = Date.now();
		expect(await worker.stop('SIGTERM')).toBe(0);
		expect(Date.now() - stopAt).toBeLessThan(20_000);
		expect(storedState(db, 'stops')).toBe('started');
	}, 60_000);
});
