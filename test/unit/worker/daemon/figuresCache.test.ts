import { describe, expect, it } from 'vitest';
import { Dashboard } from '../../../../worker/src/daemon/dashboard/dashboard';
import { emptyFigures } from '../../../../worker/src/storage/dashboardFigures';
import type {
	DashboardCampaign,
	DashboardFigures,
	FigureLines,
} from '../../../../worker/src/storage/ledger';

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

const turn = () => new Promise((r) => setImmediate(r));
const LAST_LINE = 2_147_483_647;

describe("the dashboard's figures cache", () => {
	it('answers at once with a big campaign not counted yet (counting), and counts it after the answer, a part at a time', async () => {
		const asked: { names: string[]; lines?: FigureLines }[] = [];
		let now = 1_000_000;
		const ledger = {
			dashboardCampaigns: async () => [campaign('small', 51), campaign('million', 1_000_001)],
			dashboardFigures: async (names: readonly string[], lines?: FigureLines) => {
				asked.push({ names: [...names], ...(lines ? { lines } : {}) });
				return new Map<string, DashboardFigures>(
					names.map((n) => {
						const f = emptyFigures();
						// The million-row campaign's lines 2 to 1,000,001, those of this part.
						const last = n === 'million' ? 1_000_001 : 51;
						f.total = Math.max(
							0,
							Math.min(lines?.through ?? last, last) - Math.max(lines?.after ?? 1, 1),
						);
						f.rows.accepted = f.total;
						// A status this version does not know (a guardrail's, say): counted, never sent.
						if (n === 'million' && lines?.after === 0) {
							f.rows.accepted -= 10;
							(f.rows as Record<string, number>).capped = 10;
						}
						return [n, f];
					}),
				);
			},
		};
		const dashboard = new Dashboard({ ledger, now: () => now });
		const first = await dashboard.rows();
		expect(asked).toEqual([{ names: ['small'] }]);
		expect(first.find((r) => r.name === 'million')).toMatchObject({
			counting: true,
			sent: 0,
			why: 'done (counting its figures)',
		});
		expect(first.find((r) => r.name === 'small')).toMatchObject({ sent: 50 });
		expect(first.find((r) => r.name === 'small')?.counting).toBeUndefined();
		await turn();
		expect(asked.at(-1)).toEqual({ names: ['million'], lines: { after: 0, through: 50_000 } });
		// A request that comes between two parts is answered: the big one is still counting.
		const during = await dashboard.rows();
		expect(during.find((r) => r.name === 'million')?.counting).toBe(true);
		while (asked.at(-1)?.lines?.through !== LAST_LINE) await turn();
		const parts = asked.filter((a) => a.names[0] === 'million').map((a) => a.lines!);
		expect(parts).toHaveLength(21);
		parts.forEach((p, i) => expect(p.after).toBe(i * 50_000));
		const second = await dashboard.rows();
		expect(second.find((r) => r.name === 'million')).toMatchObject({
			sent: 999_990,
			skipped: 10,
			toSend: 999_990,
			why: 'done',
		});
		// Read again only once stale: the small one after about 5 s (it is over), the big one much later.
		now += 6_000;
		await dashboard.rows();
		expect(asked.at(-1)).toEqual({ names: ['small'] });
	});
});
