import Database from 'better-sqlite3';
import { describe, expect, it, vi } from 'vitest';
import { startSandbox } from '../../../sandbox/src';
import { cleanupAfterEach } from '../../support/cleanup';
import { sql } from '../../support/postgres/database';
import { storeBackends, type StoreBackend } from '../../support/storeBackends';
import { createServer, request } from 'node:http';
import { freePort, SandboxDriver, until } from '../daemon/harness';
import { API_TOKEN, ApiUnderTest, recipients } from './apiHarness';

const cleanup = cleanupAfterEach();

const storeBackendsOnce = storeBackends();

/** When each of the campaign's chunks was marked sent (ms, just before its request left), from its store. */
async function submittedAt(backend: StoreBackend, campaign: string): Promise<number[]> {
	const location = backend.location();
	const text = `SELECT at FROM submissions WHERE campaign = '${campaign}' AND at IS NOT NULL`;
	if (location.kind === 'postgres')
		return (await sql<{ at: string }>(location.url, text)).map((r) => Number(r.at));
	const db = new Database(location.path, { readonly: true });
	try {
		return (db.prepare(text).all() as { at: number }[]).map((r) => r.at);
	} finally {
		db.close();
	}
}

// Backends: pause, resume and cancel under way (the run's state in the store) run on both;
// the scheduled campaign and the CSV upload on one each, alternating (the API campaigns'
// store contract is proven on both by test/integration/api/apiCampaignStore.test.ts).
describe.each(storeBackendsOnce)('campaign API life ($name)', (backend) => {
	const api = (options: { maxCsvBytes?: number } = {}) =>
		ApiUnderTest.startWithSandbox(backend, cleanup, options);

	it('pauses, resumes and cancels a campaign under way; a suppressed number is not sent', async () => {
		const a = await api();
		await a.ledger.addSuppression('+61491500003', 'STOP');
		expect(
			(
				await a.call('PUT', '/api/campaigns/slow', {
					property: a.sandbox.demo.PropertySid,
					text: 'Hi {{first_name}}',
					rate: 10,
					batchSize: 1,
				})
			).status,
		).toBe(201);
		expect(
			(await a.call('PUT', '/api/campaigns/slow/pages/1', { recipients: recipients(0, 60) }))
				.status,
		).toBe(200);
		expect((await a.call('POST', '/api/campaigns/slow/start', { pages: 1 })).status).toBe(202);
		await until(
			async () => (await a.call('GET', '/api/campaigns/slow')).body.campaign.counts.accepted >= 5,
			20_000,
		);
		const paused = await a.call('POST', '/api/campaigns/slow/pause');
		expect(paused.status).toBe(200);
		expect(paused.body.campaign.state).toBe('paused');
		// The batches in flight settle, then the run says it waits paused; until it says it
		// goes on after the resume, not one chunk is marked sent.
		const line = (msg: string) =>
			vi.waitFor(
				() =>
					a.lines.map((l) => JSON.parse(l)).find((l) => l.msg === msg && l.campaign === 'slow') ??
					Promise.reject(new Error(`no ${msg} yet`)),
				{ timeout: 20_000, interval: 20 },
			);
		const pausedAt = Date.parse((await line('campaign paused')).time);
		const settled = (await a.call('GET', '/api/campaigns/slow')).body.campaign.counts.accepted;
		// Meanwhile another campaign at its pace sends five messages: one that went on would have sent in that time too.
		expect(
			(
				await a.call('PUT', '/api/campaigns/beat', {
					property: a.sandbox.demo.PropertySid,
					text: 'Hi {{first_name}}',
					rate: 10,
					batchSize: 1,
				})
			).status,
		).toBe(201);
		expect(
			(await a.call('PUT', '/api/campaigns/beat/pages/1', { recipients: recipients(100, 5) }))
				.status,
		).toBe(200);
		expect((await a.call('POST', '/api/campaigns/beat/start', { pages: 1 })).status).toBe(202);
		await until(
			async () => (await a.call('GET', '/api/campaigns/beat')).body.campaign.state === 'finished',
			20_000,
			'the other campaign to finish',
		);
		expect((await a.call('POST', '/api/campaigns/slow/pause')).status).toBe(200);
		const resumed = await a.call('POST', '/api/campaigns/slow/resume');
		expect(resumed.body.campaign.state).toBe('sending');
		const resumedAt = Date.parse((await line('campaign resumed')).time);
		// A chunk marked in the very millisecond of either line may be on either side of it
		// (seen both ways in parallel runs): only the time strictly between them proves a pause.
		expect(
			(await submittedAt(backend, 'slow')).filter((at) => at > pausedAt && at < resumedAt),
			`paused at ${pausedAt}, resumed at ${resumedAt}`,
		).toEqual([]);
		await until(
			async () =>
				(await a.call('GET', '/api/campaigns/slow')).body.campaign.counts.accepted >= settled + 3,
			20_000,
		);
		const cancelled = await a.call('POST', '/api/campaigns/slow/cancel');
		expect(cancelled.status).toBe(200);
		expect(cancelled.body.campaign.state).toBe('cancelled');
		await until(
			async () => (await a.call('GET', '/api/campaigns/slow')).body.campaign.counts.pending === 0,
			20_000,
		);
		const counts = (await a.call('GET', '/api/campaigns/slow')).body.campaign.counts;
		expect(counts.suppressed).toBe(1);
		expect(counts.accepted + counts.cancelled + counts.suppressed).toBe(60);
		expect(counts.cancelled).toBeGreaterThan(0);
		expect((await a.call('POST', '/api/campaigns/slow/resume')).body.error.code).toBe('conflict');
		expect((await a.call('POST', '/api/campaigns/slow/cancel')).status).toBe(200);
		// Nobody was sent twice, and the suppressed number never.
		const tos = (await new SandboxDriver(a.sandbox).messages()).map((m: { To: string }) => m.To);
		expect(new Set(tos).size).toBe(tos.length);
		expect(tos).not.toContain('+61491500003');
	}, 90_000);

	it.runIf(backend.name === 'postgres')(
		"shows a campaign scheduled beyond the provider's 14 days as scheduled, and cancels it before anything is sent",
		async () => {
			const a = await api();
			const schedule = new Date(Date.now() + 20 * 86_400_000).toISOString();
			await a.call('PUT', '/api/campaigns/later', {
				property: a.sandbox.demo.PropertySid,
				text: 'Hi {{first_name}}',
				schedule,
			});
			await a.call('PUT', '/api/campaigns/later/pages/1', { recipients: recipients(0, 3) });
			expect((await a.call('POST', '/api/campaigns/later/start')).body.campaign.state).toBe(
				'scheduled',
			);
			// Imported, then waiting for its time.
			await until(
				async () =>
					(await a.call('GET', '/api/campaigns/later')).body.campaign.counts.pending === 3 &&
					(await a.ledger.campaign('later'))?.phase === 'sending',
				20_000,
			);
			expect((await a.call('GET', '/api/campaigns')).body.campaigns).toEqual([
				{ name: 'later', state: 'scheduled' },
			]);
			const cancelled = await a.call('POST', '/api/campaigns/later/cancel');
			expect(cancelled.body.campaign.state).toBe('cancelled');
			await until(
				async () =>
					(await a.call('GET', '/api/campaigns/later')).body.campaign.counts.cancelled === 3,
				20_000,
			);
			expect(await new SandboxDriver(a.sandbox).messages()).toHaveLength(0);
		},
		60_000,
	);

	it.runIf(backend.name === 'sqlite')(
		'takes a CSV streamed, the same CSV again unchanged, and refuses one too large',
		async () => {
			const a = await api({ maxCsvBytes: 4096 });
			await a.call('PUT', '/api/campaigns/csv', {
				property: a.sandbox.demo.PropertySid,
				text: 'Hi {{Name}}',
				rate: 0,
			});
			const csv = 'Phone;Name\n+61491570101;Ann\n+61491570102;"Bo; Jr"\nnot-a-number;X\n';
			const put = await a.call('PUT', '/api/campaigns/csv/csv', csv, {
				'content-type': 'text/csv',
			});
			expect(put).toMatchObject({ status: 200, body: { rows: 3 } });
			expect(
				(await a.call('PUT', '/api/campaigns/csv/csv', csv, { 'content-type': 'text/csv' })).body,
			).toEqual({ rows: 3, unchanged: true });
			expect(
				(
					await a.call('PUT', '/api/campaigns/csv/csv', csv + '+61491570103;C\n', {
						'content-type': 'text/csv',
					})
				).body.error.code,
			).toBe('page_conflict');
			expect(
				(await a.call('PUT', '/api/campaigns/csv/pages/1', { recipients: recipients(0, 1) })).body
					.error.code,
			).toBe('conflict');
			await a.call('PUT', '/api/campaigns/big', {
				property: a.sandbox.demo.PropertySid,
				text: 'Hi',
			});
			const big = await a.call(
				'PUT',
				'/api/campaigns/big/csv',
				'Phone\n' + '+61491570101\n'.repeat(400),
				{ 'content-type': 'text/csv' },
			);
			expect(big.status).toBe(413);
			expect(big.body.error.code).toBe('too_large');
			// Streamed without a length (chunked): refused once past the cap, the rest read and dropped.
			const chunked = new ReadableStream({
				start(controller) {
					for (let i = 0; i < 40; i++)
						controller.enqueue(new TextEncoder().encode('+61491570101\n'.repeat(20)));
					controller.close();
				},
			});
			const streamed = await fetch(`${a.url}/api/campaigns/big/csv`, {
				method: 'PUT',
				headers: { authorization: `Bearer ${API_TOKEN}`, 'content-type': 'text/csv' },
				body: chunked,
				duplex: 'half',
			} as RequestInit);
			expect(streamed.status).toBe(413);
			expect(((await streamed.json()) as { error: { code: string } }).error.code).toBe('too_large');
			expect((await a.call('GET', '/api/campaigns/big')).body.campaign.counts.recipients).toBe(0);
			expect((await a.call('POST', '/api/campaigns/csv/start')).status).toBe(202);
			await until(
				async () => (await a.call('GET', '/api/campaigns/csv')).body.campaign.state === 'finished',
				20_000,
			);
			expect((await a.call('GET', '/api/campaigns/csv')).body.campaign.counts).toMatchObject({
				recipients: 3,
				accepted: 2,
				invalid: 1,
			});
			expect(
				(await new SandboxDriver(a.sandbox).messages()).map((m: { Text: string }) => m.Text).sort(),
			).toEqual(['Hi Ann', 'Hi Bo; Jr']);
			expect(
				(await a.call('PUT', '/api/campaigns/csv/csv', csv, { 'content-type': 'text/csv' })).body
					.error.code,
			).toBe('started');
		},
		60_000,
	);
});

describe('campaign API: a provider out of reach', () => {
	it('keeps the campaign started, says why, and sends it once the provider answers', async () => {
		const sandbox = await startSandbox({ port: 0 });
		cleanup.push(() => sandbox.close());
		const port = await freePort();
		const [backend] = storeBackendsOnce;
		const a = await ApiUnderTest.start(sandbox, backend.location(), {
			baseUrl: `http://127.0.0.1:${port}`,
		});
		cleanup.push(() => a.close());
		await a.call('PUT', '/api/campaigns/later', {
			property: sandbox.demo.PropertySid,
			text: 'Hi {{first_name}}',
			rate: 0,
		});
		await a.call('PUT', '/api/campaigns/later/pages/1', { recipients: recipients(0, 5) });
		expect((await a.call('POST', '/api/campaigns/later/start')).status).toBe(202);
		const waiting = await until(async () => {
			const c = (await a.call('GET', '/api/campaigns/later')).body.campaign;
			return c.reason !== undefined && c;
		}, 20_000);
		expect(waiting.state).toBe('sending');
		expect(waiting.reason).toMatch(/going again/);
		// The provider comes back where it was.
		const target = new URL(sandbox.url);
		const proxy = createServer((req, res) => {
			const out = request(
				{
					host: target.hostname,
					port: target.port,
					method: req.method,
					path: req.url,
					headers: req.headers,
				},
				(answer) => {
					res.writeHead(answer.statusCode ?? 502, answer.headers);
					answer.pipe(res);
				},
			);
			req.pipe(out);
		});
		await new Promise<void>((r) => proxy.listen(port, '127.0.0.1', r));
		cleanup.push(() => new Promise((r) => proxy.close(r)));
		await until(
			async () => (await a.call('GET', '/api/campaigns/later')).body.campaign.state === 'finished',
			30_000,
		);
		const done = (await a.call('GET', '/api/campaigns/later')).body.campaign;
		expect(done.counts.accepted).toBe(5);
		expect(done.reason).toBeUndefined();
	}, 60_000);
});
