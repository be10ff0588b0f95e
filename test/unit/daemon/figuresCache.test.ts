import { describe, expect, it } from 'vitest';
import { Dashboard } from '../../../worker/src/daemon/dashboard/dashboard';
import { emptyFigures } from '../../../worker/src/storage/dashboardFigures';
import type { DashboardCampaign, DashboardFigures } from '../../../worker/src/storage/ledger';

function campaign(name: string, importedThrough: number): DashboardCampaign {
	return {
		name,
		spentMicros: 0,
		record: {
			spec: { name, csvPath: '/x.csv', propertySid: 'PR1', text: 'Hi' },
			phase: 'finished',
			paused: false,
			importedThrough,
			createdAt: 1,
			updatedAt: 2,
		},
	};
}

describe("the dashboard's figures cache", () => {
	it('answers at once with a big campaign not counted yet (counting), and counts it after the answer', async () => {
		const asked: string[][] = [];
		let now = 1_000_000;
		const ledger = {
			dashboardCampaigns: async () => [campaign('small', 51), campaign('million', 1_000_001)],
			dashboardFigures: async (names: readonly string[]) => {
				asked.push([...names]);
				return new Map<string, DashboardFigures>(
					names.map((n) => {
						const f = emptyFigures();
						f.total = n === 'million' ? 1_000_000 : 50;
						f.rows.accepted = f.total;
						return [n, f];
					}),
				);
			},
		};
		const dashboard = new Dashboard({ ledger, now: () => now });
		const first = await dashboard.rows();
		expect(asked).toEqual([['small']]);
		expect(first.find((r) => r.name === 'million')).toMatchObject({
			counting: true,
			sent: 0,
			why: 'done (counting its figures)',
		});
		expect(first.find((r) => r.name === 'small')).toMatchObject({ sent: 50 });
		expect(first.find((r) => r.name === 'small')?.counting).toBeUndefined();
		await new Promise((r) => setImmediate(r));
		expect(asked).toEqual([['small'], ['million']]);
		const second = await dashboard.rows();
		expect(second.find((r) => r.name === 'million')).toMatchObject({
			sent: 1_000_000,
			why: 'done',
		});
		// Read again only once stale: the small one after about 5 s (it is over), the big one much later.
		now += 6_000;
		await dashboard.rows();
		expect(asked.at(-1)).toEqual(['small']);
	});
});
