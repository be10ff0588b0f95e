import { describe, expect, it, vi } from 'vitest';
import { cleanupAfterEach } from '../../support/cleanup';
import { storeBackends } from '../../support/storeBackends';
import { ApiUnderTest } from './apiHarness';

const cleanup = cleanupAfterEach();
const sqlite = storeBackends().filter((b) => b.name === 'sqlite');

const ANN = '+61491570911';
const BEN = '+61491570912';
const CAL = '+61491570913';

async function finished(api: ApiUnderTest, name: string): Promise<void> {
	await vi.waitFor(
		async () => {
			const state = (await api.call('GET', `/api/campaigns/${name}`)).body.campaign.state;
			if (state !== 'finished') throw new Error(`${name} is ${state}`);
		},
		{ timeout: 20_000, interval: 50 },
	);
}

/**
 * The campaign API's recipients carry `consent: {source, at}`, stored per number as a CLI
 * list's consent columns are, and `requireConsent` holds one without any; the evidence of a
 * campaign is `GET .../evidence`, the JSON of `campaign evidence --json`.
 */
describe.each(sqlite)('consent and evidence through the campaign API ($name)', (backend) => {
	it('a bad consent is refused naming the recipient and field; consent is stored once and required; the evidence shows it', async () => {
		const api = await ApiUnderTest.startWithSandbox(backend, cleanup);
		const property = api.sandbox.demo.PropertySid;
		expect(
			(await api.call('PUT', '/api/campaigns/march', { property, text: 'Hi {{name}}' })).status,
		).toBe(201);

		for (const [consent, field, words] of [
			[{ at: '2026-03-01' }, 'recipients[1].consent.source', /must be a non-blank string/],
			[{ source: 'web', at: 'yesterday' }, 'recipients[1].consent.at', /ISO 8601.*"yesterday"/],
			[{ source: 'web', by: 'me' }, 'recipients[1].consent.by', /not a field of consent/],
			['web form', 'recipients[1].consent', /must be an object/],
		] as const) {
			const refused = await api.call('PUT', '/api/campaigns/march/pages/1', {
				recipients: [
					{ phone: ANN, name: 'Ann' },
					{ phone: BEN, name: 'Ben', consent },
				],
			});
			expect(refused.status).toBe(400);
			expect(refused.body.error.code).toBe('invalid');
			expect(refused.body.error.problems).toEqual([
				{ field, message: expect.stringMatching(words) },
			]);
		}

		expect(
			(
				await api.call('PUT', '/api/campaigns/march/pages/1', {
					recipients: [
						{
							phone: ANN,
							name: 'Ann',
							consent: { source: 'web form 2026-03', at: '2026-03-14T09:30:00Z' },
						},
						{ phone: BEN, name: 'Ben', consent: { source: 'in-store' } },
						{ phone: CAL, name: 'Cal', consent: null },
					],
				})
			).status,
		).toBe(200);
		// No evidence before it sends.
		expect((await api.call('GET', '/api/campaigns/march/evidence')).body.error).toMatchObject({
			code: 'conflict',
			field: 'state',
		});
		const startedAt = Date.now();
		expect((await api.call('POST', '/api/campaigns/march/start', { pages: 1 })).status).toBe(202);
		await finished(api, 'march');

		// A later campaign requires consent: Ann's is kept from March though this list omits it; Cal never gave one.
		expect(
			(
				await api.call('PUT', '/api/campaigns/april', {
					property,
					text: 'Hi {{name}}',
					requireConsent: true,
				})
			).body.campaign.settings,
		).toMatchObject({ requireConsent: true });
		expect(
			(
				await api.call('PUT', '/api/campaigns/april/pages/1', {
					recipients: [
						{ phone: ANN, name: 'Ann' },
						{ phone: BEN, name: 'Ben', consent: { source: 'newsletter' } },
						{ phone: CAL, name: 'Cal' },
					],
				})
			).status,
		).toBe(200);
		expect((await api.call('POST', '/api/campaigns/april/start', { pages: 1 })).status).toBe(202);
		await finished(api, 'april');
		expect((await api.call('GET', '/api/campaigns/april')).body.campaign.counts).toMatchObject({
			accepted: 2,
			invalid: 1,
		});
		expect(
			(await api.call('GET', '/api/campaigns/april/report?notSentLimit=5')).body.notSent.recipients,
		).toEqual([
			{ line: 4, to: CAL, status: 'invalid', code: 'NO_CONSENT', message: expect.any(String) },
		]);

		const evidence = await api.call('GET', '/api/campaigns/april/evidence');
		expect(evidence.status).toBe(200);
		expect(evidence.body).toMatchObject({ campaign: 'april', exportedAt: expect.any(String) });
		const rows = evidence.body.rows;
		expect(rows.map((r: { number: string }) => r.number)).toEqual([ANN, BEN, CAL]);
		expect(rows[0]).toMatchObject({
			consentSource: 'web form 2026-03',
			consentAt: Date.parse('2026-03-14T09:30:00Z'),
			status: 'accepted',
			text: 'Hi Ann',
			messageSid: expect.any(String),
			sentAfterOptOut: false,
		});
		// Ben's first source stands; recorded with no `at`, at the time it was stored.
		expect(rows[1].consentSource).toBe('in-store');
		expect(rows[1].consentAt).toBeGreaterThanOrEqual(startedAt - 1_000);
		expect(rows[2]).toMatchObject({ status: 'invalid', sentAfterOptOut: false });
		expect(rows[2].consentSource).toBeUndefined();
		expect(rows[2].messageSid).toBeUndefined();

		// The OpenAPI document the API serves describes both.
		const doc = (await api.call('GET', '/api/openapi.json')).body;
		expect(doc.paths['/api/campaigns/{name}/evidence'].get.responses['200']).toBeDefined();
		expect(JSON.stringify(doc)).toContain('requireConsent');
	});
});
