import { afterEach, describe, expect, it } from 'vitest';
import type { Ledger } from '../../../../worker/src/storage/ledger';
import { linkStoreOf, openLedger } from '../../../../worker/src/storage/openStores';
import { storeBackends } from '../../../support/storeBackends';

const open: Ledger[] = [];
afterEach(async () => {
	for (const l of open.splice(0)) await l.close();
});

describe.each(storeBackends())("a variant's clicks ($name)", (backend) => {
	it('counts the rows of each variant whose links a person followed, never a preview', async () => {
		const ledger = await openLedger(backend.location());
		open.push(ledger);
		await ledger.createCampaign({
			name: 'c',
			csvPath: '/l.csv',
			propertySid: 'PR1',
			text: 'a',
			variants: ['b'],
		});
		const row = (line: number, variant: number) => ({
			line,
			to: `+6149157015${line}`,
			text: `https://go.example.com/Token${line}AAAA`,
			segments: 1,
			status: 'pending' as const,
			variant,
			links: [{ token: `Token${line}AAAA`, url: `https://shop.example.com/${variant}` }],
		});
		await ledger.importBatch('c', [row(2, 1), row(3, 2), row(4, 2)], 4);
		await ledger.markSubmitting('c', [2, 3, 4], 1);
		await ledger.settle('c', 1, [
			{ line: 2, status: 'accepted', messageSid: 'SM2' },
			{ line: 3, status: 'accepted', messageSid: 'SM3' },
			{ line: 4, status: 'accepted', messageSid: 'SM4' },
		]);
		const links = linkStoreOf(ledger);
		const at = Date.now() + 60_000;
		const click = (key: string, token: string, prefetch: boolean) =>
			links.recordClick({ key, token, at, prefetch }, 0);
		// Variant 1's link unfurled twice; one of variant 2's rows clicks twice.
		await click('k1', 'Token2AAAA', true);
		await click('k2', 'Token2AAAA', true);
		await click('k3', 'Token3AAAA', false);
		await click('k4', 'Token3AAAA', false);
		const tally = await ledger.variants.tally('c');
		expect(tally.map((t) => [t.variant, t.sent, t.clicks])).toEqual([
			[1, 1, 0],
			[2, 2, 1],
		]);
	});
});
