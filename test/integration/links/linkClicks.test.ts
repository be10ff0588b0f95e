import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../sandbox/src';
import { CallbackCatcher } from '../../support/callbackCatcher';
import { cleanupAfterAll } from '../../support/cleanup';
import { runCampaign } from '../../support/runCampaign';
import { workerRig } from '../../support/workerRig';
import { until } from '../daemon/harness';
import { cli, sandboxMessages, writeCsv } from '../worker/harness';

const SECRET = 'links-secret-0123456789abcdef';
const ANN = '+61491571001';
const BOB = '+61491571002';
const CAROL = '+61491571003';
const SHOP = 'https://shop.example.com/spring?from=sms';
const MAP = 'https://maps.example.com/store/12';

interface Status {
	links: { clicked: number; clicks: number; prefetches: number };
}

/**
 * Tracked links followed over HTTP, as a recipient's phone would: a CLI campaign with
 * --track-links on a worker's SQLite ledger, its texts read back from the sandbox, each
 * link asked of the worker.
 */
describe('tracked links served by a worker', () => {
	const cleanup = cleanupAfterAll();
	let sandbox: RunningSandbox;
	let catcher: CallbackCatcher;
	let db: string;
	let base: string;
	/** Each recipient's links, in the order of the text: the shop's, then the map's. */
	const links = new Map<string, string[]>();

	const status = async (): Promise<Status> => {
		const r = await cli(['campaign', 'status', '--db', db, '--name', 'promo', '--json']);
		expect(r.code, r.stderr).toBe(0);
		return JSON.parse(r.stdout) as Status;
	};
	/** Status once the worker has processed what it stored: clicks are counted after the redirect. */
	const statusWhen = (ok: (s: Status) => boolean) =>
		until(
			async () => {
				const s = await status();
				return ok(s) ? s : undefined;
			},
			20_000,
			'the clicks in campaign status',
		);
	const follow = (url: string, init: RequestInit = {}) =>
		fetch(url, { redirect: 'manual', ...init });

	beforeAll(async () => {
		catcher = await CallbackCatcher.start();
		cleanup.push(() => catcher.close());
		const rig = await workerRig(cleanup, {
			secret: SECRET,
			sandbox: { receiptDelayMs: 60_000 },
			config: (_dir, port) => ({
				links: { baseUrl: `http://127.0.0.1:${port}/l`, scanWindowSeconds: 0 },
				events: { url: catcher.url },
			}),
		});
		({ sandbox, db } = rig);
		base = `http://127.0.0.1:${rig.port}/l`;
		const csv = writeCsv(
			rig.dir,
			'promo.csv',
			`Phone,Name\n${ANN},Ann\n${BOB},Bob\n${CAROL},Carol\n`,
		);
		const run = await runCampaign(sandbox, {
			csv,
			db,
			name: 'promo',
			text: `Hi {{Name}}: ${SHOP} or find us ${MAP}`,
			flags: ['--track-links', '--link-base', base],
		});
		expect(run.code, run.stderr).toBe(0);
		for (const m of await sandboxMessages(sandbox))
			links.set(
				m.To,
				[...m.Text.matchAll(/http:\/\/127\.0\.0\.1:\d+\/l\/[A-Za-z0-9_-]{10}/g)].map((x) => x[0]),
			);
	}, 120_000);

	it('redirects each link to its own URL at once (302), and counts clicks per recipient apart from previews', async () => {
		expect(links.get(ANN)).toHaveLength(2);
		const [shop, map] = links.get(ANN)!;
		const first = await follow(shop);
		expect(first.status).toBe(302);
		expect(first.headers.get('location')).toBe(SHOP);
		expect((await follow(map)).headers.get('location')).toBe(MAP);
		// Ann again on the shop's link: one recipient who clicked, three clicks.
		expect((await follow(shop)).status).toBe(302);
		// Bob's phone shows a preview (HEAD), and a chat app unfurls his link: neither is a click.
		const [bobShop] = links.get(BOB)!;
		const head = await follow(bobShop, { method: 'HEAD' });
		expect(head.status).toBe(302);
		expect(head.headers.get('location')).toBe(SHOP);
		const unfurl = await follow(bobShop, {
			headers: {
				'user-agent': 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
			},
		});
		expect(unfurl.status).toBe(302);
		const s = await statusWhen((x) => x.links.clicks + x.links.prefetches === 5);
		expect(s.links).toEqual({ clicked: 1, clicks: 3, prefetches: 2 });
		// Events out: a click event per recipient and link, on the first real click only.
		const clicks = () => catcher.requests.filter((r) => r.body?.type === 'click');
		await until(() => clicks().length === 2 || undefined, 20_000, 'two click events');
		expect(
			clicks()
				.map((r) => [r.body.campaign, r.body.data.number, r.body.data.url])
				.sort(),
		).toEqual([
			['promo', ANN, MAP],
			['promo', ANN, SHOP],
		]);
		expect(clicks().map((r) => r.headers['idempotency-key'])).toEqual(
			clicks().map((r) => r.body.id),
		);
		// The report: the click rate in the funnel's terms, clicks per link and over time.
		const report = await cli(['campaign', 'report', '--db', db, '--name', 'promo', '--json']);
		expect(report.code, report.stderr).toBe(0);
		const r = JSON.parse(report.stdout) as {
			links: {
				clicked: number;
				clickRate: number;
				perLink: unknown[];
				timeline: { count: number }[];
			};
		};
		expect(r.links).toMatchObject({ clicked: 1, clicks: 3, prefetches: 2, clickRate: 0.3333 });
		expect(r.links.perLink).toEqual([
			{ url: SHOP, clicked: 1, clicks: 2 },
			{ url: MAP, clicked: 1, clicks: 1 },
		]);
		expect(r.links.timeline.reduce((sum, b) => sum + b.count, 0)).toBe(3);
		const text = await cli(['campaign', 'status', '--db', db, '--name', 'promo']);
		expect(text.stdout).toContain(
			'links: clicked by 1 recipient (3 clicks); 2 previews not counted',
		);
	});

	it('answers an unknown token and a path that is no token with a plain 404 that says nothing, and never redirects elsewhere', async () => {
		for (const path of ['/l/AAAAAAAAAA', '/l/short', `/l/${links.get(ANN)![0].slice(-10)}x`]) {
			const r = await follow(`http://${new URL(base).host}${path}`);
			expect(r.status, path).toBe(404);
			expect(r.headers.get('location')).toBeNull();
		}
		const unknown = await follow(`${base}/AAAAAAAAAA`);
		expect(await unknown.text()).toBe('Not found\n');
		expect(unknown.headers.get('content-type')).toMatch(/^text\/plain/);
		// A URL in the query asks for no redirect: only stored URLs are ever a Location.
		const open = await follow(`${base}/AAAAAAAAAA?url=https://evil.example.com`);
		expect(open.status).toBe(404);
	});

	it('answers a link past links.ttl with 410, and does not count it', async () => {
		const [carolShop] = links.get(CAROL)!;
		expect((await follow(carolShop)).status).toBe(302);
		// 91 days pass, as far as this link is concerned (the default ttl is 90 days).
		const d = new Database(db);
		try {
			d.prepare('UPDATE links SET created_at = created_at - ? WHERE token = ?').run(
				91 * 86_400_000,
				carolShop.slice(-10),
			);
		} finally {
			d.close();
		}
		const gone = await follow(carolShop);
		expect(gone.status).toBe(410);
		expect(gone.headers.get('location')).toBeNull();
		expect(await gone.text()).toBe('This link has expired\n');
		const s = await statusWhen((x) => x.links.clicked === 2);
		expect(s.links).toEqual({ clicked: 2, clicks: 4, prefetches: 2 });
	});

	it("contact show lists each click; contact forget erases the number's links and clicks: its links then answer as unknown", async () => {
		const [shop] = links.get(ANN)!;
		const shown = await cli(['contact', 'show', ANN, '--db', db, '--json']);
		const clicks = (
			JSON.parse(shown.stdout) as { events: { kind: string; text?: string; campaign?: string }[] }
		).events.filter((e) => e.kind === 'click');
		expect(clicks.map((c) => c.text)).toEqual([SHOP, MAP, SHOP]);
		expect(clicks.every((c) => c.campaign === 'promo')).toBe(true);
		const forget = await cli(['contact', 'forget', ANN, '--db', db]);
		expect(forget.code, forget.stderr + forget.stdout).toBe(0);
		expect((await follow(shop)).status).toBe(404);
		const s = await status();
		expect(s.links).toEqual({ clicked: 1, clicks: 1, prefetches: 2 });
	});
});
