import { afterEach, describe, expect, it } from 'vitest';
import type { Ledger } from '../../../../worker/src/storage/ledger';
import { linkStoreOf, openLedger } from '../../../../worker/src/storage/openStores';
import { storeBackends } from '../../../support/storeBackends';

const open: Ledger[] = [];
afterEach(async () => {
	for (const l of open.splice(0)) await l.close();
});

/** A campaign of one row with a tracked link, sent (its answer stored) now. */
async function sentWithLink(ledger: Ledger): Promise<void> {
	await ledger.createCampaign({ name: 'c', csvPath: '/l.csv', propertySid: 'PR1', text: 'x' });
	await ledger.importBatch(
		'c',
		[
			{
				line: 2,
				to: '+61491570156',
				text: 'https://go.example.com/TokenAAAAA',
				segments: 1,
				status: 'pending',
				links: [{ token: 'TokenAAAAA', url: 'https://shop.example.com/' }],
			},
		],
		2,
	);
	await ledger.markSubmitting('c', [2], 1);
	await ledger.settle('c', 1, [{ line: 2, status: 'accepted', messageSid: 'SM1' }]);
}

describe.each(storeBackends())('tracked link clicks ($name)', (backend) => {
	it("keeps a request within the scan window after the send as a carrier's prefetch; the first later one is the recipient's first click", async () => {
		const ledger = await openLedger(backend.location());
		open.push(ledger);
		await sentWithLink(ledger);
		const links = linkStoreOf(ledger);
		const at = Date.now();
		const click = (key: string, ms: number, prefetch = false) =>
			links.recordClick({ key, token: 'TokenAAAAA', at: at + ms, prefetch }, 5_000);
		expect(await click('k1', 1_000)).toMatchObject({ prefetch: true, first: false });
		expect(await click('k2', 60_000)).toMatchObject({
			prefetch: false,
			first: true,
			campaign: 'c',
			line: 2,
			url: 'https://shop.example.com/',
			to: '+61491570156',
		});
		expect(await click('k3', 70_000)).toMatchObject({ prefetch: false, first: false });
		// Fed twice from a spool: counted once.
		await click('k3', 70_000);
		expect(await click('k4', 80_000, true)).toMatchObject({ prefetch: true });
		expect(await links.counts('c')).toEqual({ clicked: 1, clicks: 2, prefetches: 2 });
		expect(await links.clickedLines('c')).toEqual([2]);
		expect(
			await links.recordClick({ key: 'k5', token: 'Unknown000', at, prefetch: false }, 0),
		).toBeUndefined();
	});
});
