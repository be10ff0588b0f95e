import { describe, expect, it } from 'vitest';
import { openLedger } from '../../../worker/src/storage/openStores';
import { cleanupAfterEach } from '../../support/cleanup';
import { storeBackends } from '../../support/storeBackends';
import { cli } from '../worker/harness';
import { until } from '../daemon/harness';
import { recipients, startCatcher } from './apiHarness';
import { apiWorkerRig, apiWorkers } from './apiRig';

/** The worker's campaign API end to end, in parts: each backend, and two workers on one Postgres. */
/** `only`: the end-to-end test, or the rest (resume after a kill, the token), where a backend's file came near 60 s. */
export function scenarios(
	part: 'sqlite' | 'postgres' | 'two-workers',
	only?: 'end-to-end' | 'rest',
): void {
	const cleanup = cleanupAfterEach();

	/** The campaign API of a started `cloudtel worker`, over real HTTP, sending through the sandbox. */
	describe.each(storeBackends().filter((b) => b.name === part))(
		"the worker's campaign API ($name)",
		(backend) => {
			const setUp = (options: { apiToken?: string | null; receiptDelayMs?: number } = {}) =>
				apiWorkerRig(backend, cleanup, {
					apiToken: options.apiToken,
					sandbox: { receiptDelayMs: options.receiptDelayMs ?? 50 },
				});

			it.runIf(only !== 'rest')(
				'sends a campaign end to end: a suppressed number not sent, true counts, one campaign.finished',
				async () => {
					const t = await setUp();
					const ledger = await openLedger(t.location);
					await ledger.addSuppression('+61491500007', 'STOP');
					await ledger.close();
					const events = await startCatcher(cleanup);
					await t.start();
					const settings = {
						property: t.sandbox.demo.PropertySid,
						text: 'Hi {{first_name}}',
						rate: 50,
						batchSize: 10,
						events: `${events.url}/hook`,
					};
					expect((await t.call('PUT', '/campaigns/e2e', settings)).status).toBe(201);
					const page1 = recipients(0, 50);
					const page2 = [
						...recipients(50, 47),
						{ phone: 'nope', first_name: 'A' },
						{ phone: '+61491500001', first_name: 'dup' },
						{ phone: '', first_name: 'B' },
					];
					expect(
						(await t.call('PUT', '/campaigns/e2e/pages/1', { recipients: page1 })).body,
					).toEqual({ page: 1, recipients: 50, pages: 1, totalRecipients: 50 });
					expect(
						(await t.call('PUT', '/campaigns/e2e/pages/2', { recipients: page2 })).body,
					).toEqual({ page: 2, recipients: 50, pages: 2, totalRecipients: 100 });
					expect((await t.call('POST', '/campaigns/e2e/start', { pages: 2 })).status).toBe(202);
					await until(
						async () => (await t.call('GET', '/campaigns/e2e')).body.campaign.state === 'finished',
						60_000,
						'the campaign finished',
					);
					await until(
						async () =>
							(await t.call('GET', '/campaigns/e2e')).body.campaign.counts.delivered >= 96,
						20_000,
						'the receipts',
					);
					const { campaign } = (await t.call('GET', '/campaigns/e2e')).body;
					expect(campaign.counts).toEqual({
						recipients: 100,
						pending: 0,
						accepted: 96,
						rejected: 0,
						uncertain: 0,
						invalid: 2,
						duplicate: 1,
						suppressed: 1,
						capped: 0,
						cancelled: 0,
						delivered: 96,
						undelivered: 0,
						replies: 0,
					});
					const sent = (await t.driver.messages()).filter((m) =>
						String(m.ExternalId).startsWith('e2e:'),
					);
					expect(sent).toHaveLength(96);
					expect(new Set(sent.map((m) => m.To)).size).toBe(96);
					expect(sent.map((m) => m.To)).not.toContain('+61491500007');
					const finished = await until(
						() => events.requests.find((r) => r.body?.type === 'campaign.finished'),
						20_000,
						'campaign.finished',
					);
					expect(finished.headers['idempotency-key']).toBe('campaign.finished:e2e');
					expect(finished.body).toMatchObject({
						id: 'campaign.finished:e2e',
						campaign: 'e2e',
						data: { state: 'finished', counts: { accepted: 96, suppressed: 1, invalid: 2 } },
					});
					expect(events.requests.filter((r) => r.body?.type === 'campaign.started')).toHaveLength(
						1,
					);
					// Nothing left to send: a repeat would have come by now.
					await until(() => t.idle(), 20_000, 'the worker to have nothing left to send');
					expect(events.requests.filter((r) => r.body?.type === 'campaign.finished')).toHaveLength(
						1,
					);
					const report = await t.call('GET', '/campaigns/e2e/report');
					expect(report.status).toBe(200);
					// The JSON of `cloudtel campaign report --json`, but for the moment it was made.
					const printed = await cli([
						'campaign',
						'report',
						'--db',
						t.location.kind === 'sqlite' ? t.location.path : t.location.url,
						'--name',
						'e2e',
						'--json',
					]);
					expect(printed.code).toBe(0);
					const timeless = (r: Record<string, any>) => ({
						...r,
						generatedAt: undefined,
						details: { ...r.details, generatedLocal: undefined },
					});
					expect(timeless(report.body)).toEqual(
						timeless(JSON.parse(printed.stdout) as Record<string, any>),
					);
					expect(report.body.funnel).toMatchObject({ rows: 100, sent: 96, delivered: 96 });
					// The same calls again (a workflow run twice) change nothing and send nobody twice.
					expect((await t.call('PUT', '/campaigns/e2e', settings)).status).toBe(200);
					expect(
						(await t.call('PUT', '/campaigns/e2e/pages/1', { recipients: page1 })).body.error.code,
					).toBe('started');
					expect((await t.call('POST', '/campaigns/e2e/start', { pages: 2 })).status).toBe(200);
					expect(
						(await t.driver.messages()).filter((m) => String(m.ExternalId).startsWith('e2e:')),
					).toHaveLength(96);
				},
				120_000,
			);

			it.runIf(only !== 'end-to-end')(
				'resumes a started campaign after the worker is killed mid-run, sending nobody twice',
				async () => {
					const t = await setUp({ receiptDelayMs: 60_000 });
					const first = await t.start(true);
					await t.call('PUT', '/campaigns/restart', {
						property: t.sandbox.demo.PropertySid,
						text: 'Hi {{first_name}}',
						rate: 10,
						batchSize: 2,
					});
					await t.call('PUT', '/campaigns/restart/pages/1', { recipients: recipients(0, 60) });
					expect((await t.call('POST', '/campaigns/restart/start')).status).toBe(202);
					await until(
						async () =>
							(await t.call('GET', '/campaigns/restart')).body.campaign.counts.accepted >= 10,
						30_000,
						'some sent',
					);
					await first.stop('SIGKILL');
					await t.start(true);
					// The killed copy's run is held until its heartbeat goes stale (15 s): then it is resumed.
					await until(
						async () =>
							(await t.call('GET', '/campaigns/restart')).body.campaign.state === 'finished',
						60_000,
						'the campaign finished after the restart',
					);
					const { counts } = (await t.call('GET', '/campaigns/restart')).body.campaign;
					expect(counts.pending).toBe(0);
					expect(counts.accepted + counts.uncertain).toBe(60);
					const sent = (await t.driver.messages()).filter((m) =>
						String(m.ExternalId).startsWith('restart:'),
					);
					expect(new Set(sent.map((m) => m.To)).size).toBe(sent.length);
					expect(sent.length).toBeGreaterThanOrEqual(counts.accepted);
					expect(sent.length).toBeLessThanOrEqual(60);
				},
				150_000,
			);

			it.runIf(only !== 'end-to-end')(
				'refuses a wrong token, and is off without one',
				async () => {
					const t = await setUp();
					await t.start();
					const wrong = await t.call('GET', '/campaigns', undefined, {
						token: 'not-the-token-0123456789',
					});
					expect(wrong.status).toBe(401);
					expect(wrong.headers.get('www-authenticate')).toMatch(/^Bearer/);
					expect(wrong.body.error.code).toBe('unauthorized');
					expect((await t.call('GET', '/openapi.json')).body.openapi).toBe('3.1.0');
					expect((await t.call('GET', '/campaigns/none')).body.error.code).toBe('not_found');
					// A page's body may be 16 MB, past the callbacks' limit, and no more.
					expect(
						(
							await t.call('PUT', '/campaigns/big', {
								property: t.sandbox.demo.PropertySid,
								text: 'Hi',
							})
						).status,
					).toBe(201);
					const page = (n: number) => ({
						recipients: recipients(0, n).map((r) => ({ ...r, note: 'x'.repeat(1700) })),
					});
					expect((await t.call('PUT', '/campaigns/big/pages/1', page(1000))).status).toBe(200);
					const huge = await t.call('PUT', '/campaigns/big/pages/2', page(10_000));
					expect(huge.status).toBe(413);
					expect(huge.body.error.code).toBe('too_large');
					const off = await setUp({ apiToken: null });
					await off.start();
					expect((await off.call('GET', '/campaigns')).status).toBe(404);
				},
				60_000,
			);
		},
	);

	describe.runIf(part === 'two-workers')('the campaign API on two workers sharing Postgres', () => {
		const [, postgres] = storeBackends();

		it('sends a campaign started through one of them with both, nobody twice', async () => {
			const { driver, sandbox, workers, call } = await apiWorkers(postgres, cleanup, 2, {
				sandbox: { latencyMs: 20 },
			});
			// Settings through one worker, pages through both (a balancer spreads them), the start through the first.
			expect(
				(
					await call(0, 'PUT', '/campaigns/shared', {
						property: sandbox.demo.PropertySid,
						text: 'Hi {{first_name}}',
						rate: 40,
						batchSize: 4,
					})
				).status,
			).toBe(201);
			expect(
				(
					await call(1, 'PUT', '/campaigns/shared', {
						property: sandbox.demo.PropertySid,
						text: 'Hi {{first_name}}',
						rate: 40,
						batchSize: 4,
					})
				).status,
			).toBe(200);
			for (let p = 1; p <= 4; p++)
				expect(
					(
						await call(p % 2, 'PUT', `/campaigns/shared/pages/${p}`, {
							recipients: recipients((p - 1) * 50, 50),
						})
					).status,
				).toBe(200);
			expect((await call(0, 'POST', '/campaigns/shared/start', { pages: 4 })).status).toBe(202);
			await until(
				async () => (await call(1, 'GET', '/campaigns/shared')).body.campaign.state === 'finished',
				60_000,
				'the campaign finished',
			);
			const { counts } = (await call(1, 'GET', '/campaigns/shared')).body.campaign;
			expect(counts).toMatchObject({ recipients: 200, accepted: 200, pending: 0, uncertain: 0 });
			const sent = (await driver.messages()).filter((m) =>
				String(m.ExternalId).startsWith('shared:'),
			);
			expect(sent).toHaveLength(200);
			expect(new Set(sent.map((m) => m.To)).size).toBe(200);
			// Both took part: each logged the run's start.
			for (const w of workers)
				expect(
					w.count((l) => l.campaign === 'shared' && l.msg === 'campaign start'),
				).toBeGreaterThan(0);
		}, 120_000);
	});
}
