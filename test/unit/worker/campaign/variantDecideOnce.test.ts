import { afterEach, describe, expect, it } from 'vitest';
import type { Reporter } from '../../../../worker/src/campaign/reporter';
import { variantStep } from '../../../../worker/src/campaign/variantStage';
import type { CampaignSpec } from '../../../../worker/src/settings/campaignSpec';
import type { ImportRow, Ledger } from '../../../../worker/src/storage/ledger';
import { openLedger } from '../../../../worker/src/storage/openStores';
import { storeBackends } from '../../../support/storeBackends';

const open: Ledger[] = [];
afterEach(async () => {
	for (const l of open.splice(0)) await l.close();
});

const spec: CampaignSpec = {
	name: 'c',
	csvPath: '/l.csv',
	propertySid: 'PR1',
	text: 'plain',
	variants: ['bold'],
	decideAfter: 60,
};

/** A reporter that keeps the events it is told. */
function recorder(): Reporter & { events: { name: string; fields: object }[] } {
	const events: { name: string; fields: object }[] = [];
	return {
		events,
		event: (name, fields) => events.push({ name, fields }),
		rowError: () => undefined,
		progress: () => undefined,
		summary: () => undefined,
		close: () => undefined,
	};
}

/**
 * Two workers reaching a variant decision at the same moment, each on its own connection to
 * one store (several workers on Postgres; the CLI beside a worker on SQLite): the decision is
 * stored and announced once, and each held row is released once, with the one winner.
 */
describe.each(storeBackends())('a variant decision made by two at once ($name)', (backend) => {
	it('is stored and reported once; the held rows are released once, all with its text', async () => {
		const first = await openLedger(backend.location());
		open.push(first);
		await first.createCampaign(spec);
		const held = (line: number): ImportRow => ({
			line,
			to: `+614915700${line}`,
			text: JSON.stringify([
				['plain', 1],
				['bold', 1],
			]),
			segments: 1,
			status: 'held',
		});
		const test = (line: number, variant: number): ImportRow => ({
			line,
			to: `+614915700${line}`,
			text: variant === 1 ? 'plain' : 'bold',
			segments: 1,
			status: 'pending',
			variant,
		});
		await first.importBatch('c', [test(2, 1), test(3, 2), held(4), held(5), held(6)], 6);
		await first.markSubmitting('c', [2, 3], 1);
		await first.settle('c', 1, [
			{ line: 2, status: 'accepted', messageSid: 'SM2' },
			{ line: 3, status: 'accepted', messageSid: 'SM3' },
		]);
		const second = await openLedger(backend.location());
		open.push(second);

		const now = () => Date.now() + 3600_000;
		const a = recorder();
		const b = recorder();
		const steps = await Promise.all([
			variantStep(spec, first, a, { now }),
			variantStep(spec, second, b, { now }),
		]);
		const decided = [...a.events, ...b.events].filter((e) => e.name === 'variant-decided');
		expect(decided).toHaveLength(1);
		const released = steps.map((s) => (s.kind === 'decided' ? s.released : 0));
		expect(released.reduce((x, y) => x + y, 0)).toBe(3);
		const decision = await first.variants.decision('c');
		expect(await second.variants.decision('c')).toEqual(decision);
		const tally = await first.variants.tally('c');
		expect(tally.find((t) => t.variant === decision!.winner)?.rows).toBe(4);
		expect((await first.counts('c')).rows).toMatchObject({ held: 0, pending: 3 });
	});
});
