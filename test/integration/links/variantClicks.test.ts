import { beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../sandbox/src';
import { cleanupAfterAll } from '../../support/cleanup';
import { campaignRunArgs } from '../../support/runCampaign';
import { runLater } from '../../support/runLater';
import { workerRig } from '../../support/workerRig';
import { until } from '../daemon/harness';
import { cli, envFor, numbersCsv, sandboxMessages, summaryOf, writeCsv } from '../worker/harness';

/**
 * `--winner-by clicks`: a variant campaign with tracked links, its links followed over HTTP
 * from the worker, as a recipient's phone would. One backend (SQLite): the tally's SQL is the
 * same on both (variantSql.ts), and Postgres runs it in test/integration/postgres/.
 */
const SECRET = 'variant-clicks-secret-0123456789';
const A = 'Hi {{Name}}, the spring sale: https://shop.example.com/spring';
const B = 'Hi {{Name}}, 20% off today only: https://shop.example.com/today';
const LINK = /http:\/\/127\.0\.0\.1:\d+\/l\/[A-Za-z0-9_-]{10}/;

interface Status {
	rows: Record<string, number>;
	links: { clicked: number; clicks: number; prefetches: number };
	variants: { rows: number; sent: number; clicks: number }[];
	winner: { index: number; by: string; byHand: boolean } | null;
}

const cleanup = cleanupAfterAll();
let sandbox: RunningSandbox;
let dir: string;
let db: string;
let base: string;

beforeAll(async () => {
	const rig = await workerRig(cleanup, {
		secret: SECRET,
		sandbox: { receiptDelayMs: 600_000 },
		// A click at once after the send is a person here, not a carrier's scanner.
		config: (_dir, port) => ({
			links: { baseUrl: `http://127.0.0.1:${port}/l`, scanWindowSeconds: 0 },
		}),
	});
	({ sandbox, dir, db } = rig);
	base = `http://127.0.0.1:${rig.port}/l`;
}, 60_000);

const args = (name: string, csv: string, extra: string[]) =>
	campaignRunArgs(sandbox, {
		csv,
		db,
		name,
		text: A,
		rate: '0',
		flags: ['--variant', B, '--winner-by', 'clicks', ...extra],
	});

const status = async (name: string): Promise<Status> => {
	const r = await cli(['campaign', 'status', '--name', name, '--db', db, '--json']);
	expect(r.code, r.stderr).toBe(0);
	return JSON.parse(r.stdout) as Status;
};

describe('a variant campaign decided by clicks', () => {
	it('refuses --winner-by clicks without --track-links, naming both flags', async () => {
		const csv = writeCsv(dir, 'untracked.csv', numbersCsv(4, 500));
		const r = await cli(args('untracked', csv, []), envFor(sandbox));
		expect(r.code).toBe(2);
		expect(r.stderr).toContain('--winner-by clicks needs --track-links');
		// Refused before anything was sent.
		expect(
			(await sandboxMessages(sandbox)).filter((m) => String(m.ExternalId).startsWith('untracked:')),
		).toEqual([]);
	});

	it('sends the rest with the text whose links were clicked most, previews not counted', async () => {
		const csv = writeCsv(dir, 'spring.csv', numbersCsv(20));
		const tracked = ['--track-links', '--link-base', base];
		const first = await cli(
			args('spring', csv, ['--test-share', '0.5', '--decide-after', '2h', ...tracked]),
			envFor(sandbox),
		);
		expect(first.code, first.stderr).toBe(4);
		expect(summaryOf(first).message).toMatch(/^waiting for the variant decision at /);
		const test = (await sandboxMessages(sandbox)).filter((m) =>
			String(m.ExternalId).startsWith('spring:'),
		);
		const ofA = test.filter((m) => m.ExternalId!.startsWith('spring:v1:'));
		const ofB = test.filter((m) => m.ExternalId!.startsWith('spring:v2:'));
		expect(ofA.length).toBeGreaterThanOrEqual(3);
		expect(ofB.length).toBeGreaterThanOrEqual(2);
		const link = (text: string) => LINK.exec(text)?.[0] ?? '';

		// A's links are only unfurled by a chat app (prefetches); two of B's recipients click.
		for (const m of ofA.slice(0, 3)) {
			const r = await fetch(link(m.Text), {
				redirect: 'manual',
				headers: { 'user-agent': 'WhatsApp/2.23.20.0 A' },
			});
			expect(r.status).toBe(302);
		}
		for (const m of ofB.slice(0, 2)) {
			const r = await fetch(link(m.Text), { redirect: 'manual' });
			expect(r.status, m.Text).toBe(302);
			expect(r.headers.get('location')).toBe('https://shop.example.com/today');
		}
		const clicked = await until(
			async () => {
				const s = await status('spring');
				return s.links.clicks + s.links.prefetches === 5 ? s : undefined;
			},
			20_000,
			'the clicks in the ledger',
		);
		expect(clicked.links).toMatchObject({ clicks: 2, prefetches: 3 });
		expect(clicked.variants.map((v) => v.clicks)).toEqual([0, 2]);

		// The same command again, by a clock past the decision.
		const summary = await runLater(
			sandbox,
			db,
			{
				name: 'spring',
				csvPath: csv,
				text: A,
				variants: [B],
				testShare: 0.5,
				winnerBy: 'clicks',
				decideAfter: 7200,
				linkBase: base,
			},
			2 * 3600_000 + 1000,
		);
		expect(summary.exitCode, summary.message).toBe(0);
		const all = (await sandboxMessages(sandbox)).filter((m) =>
			String(m.ExternalId).startsWith('spring:'),
		);
		expect(all).toHaveLength(20);
		expect(new Set(all.map((m) => m.To)).size).toBe(20);
		for (const m of all.filter((x) => !test.some((t) => t.MessageSid === x.MessageSid))) {
			expect(m.ExternalId).toMatch(/^spring:v2:\d+$/);
			expect(m.Text).toMatch(/20% off today only: http:\/\/127\.0\.0\.1:\d+\/l\/\S{10}$/);
		}
		const after = await status('spring');
		expect(after.winner).toMatchObject({ index: 2, by: 'clicks', byHand: false });
		expect(after.rows.accepted).toBe(20);
		// A rest row's link is its own, and leads to the winner's URL.
		const rest = all.find((m) => !test.some((t) => t.MessageSid === m.MessageSid))!;
		const r = await fetch(link(rest.Text), {
			redirect: 'manual',
			headers: { 'user-agent': 'WhatsApp/2.23.20.0 A' },
		});
		expect(r.headers.get('location')).toBe('https://shop.example.com/today');
	}, 60_000);
});
