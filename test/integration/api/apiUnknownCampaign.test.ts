import { describe, expect, it } from 'vitest';
import { isWorkerApiErrorBody, WORKER_API_ERROR_STATUS } from '../../../api';
import { cleanupAfterEach } from '../../support/cleanup';
import { storeBackends } from '../../support/storeBackends';
import { ApiUnderTest } from './apiHarness';

const cleanup = cleanupAfterEach();

/** Every route that names a campaign, with a body it would take for a campaign that existed. */
const ROUTES: { method: string; path: string; body?: unknown; headers?: Record<string, string> }[] =
	[
		{ method: 'GET', path: '' },
		{
			method: 'PUT',
			path: '/pages/1',
			body: { recipients: [{ phone: '+61491570101', first_name: 'Ann' }] },
		},
		{
			method: 'PUT',
			path: '/csv',
			body: 'Phone,first_name\n+61491570101,Ann\n',
			headers: { 'content-type': 'text/csv' },
		},
		{ method: 'POST', path: '/start', body: { pages: 1 } },
		{ method: 'POST', path: '/start' },
		{ method: 'POST', path: '/pause' },
		{ method: 'POST', path: '/resume' },
		{ method: 'POST', path: '/cancel' },
		{ method: 'GET', path: '/report' },
		{ method: 'GET', path: '/report?pricePerSegment=0.05' },
		{ method: 'GET', path: '/preview' },
		{ method: 'GET', path: '/preview?pricePerSegment=0.05' },
	];

/**
 * A campaign name the API never took is refused alike on every route that names one: 404
 * `not_found` naming it (docs/internals.md, "Errors"; api/workerApi's WORKER_API_ERROR_STATUS),
 * and the refusal creates nothing. A name only the ledger knows (a `campaign run` or config
 * campaign) is no API campaign either: pause or cancel through the API must not reach it.
 */
describe.each(storeBackends())('an unknown campaign over HTTP ($name)', (backend) => {
	it('is 404 not_found on every campaign route, and none of them makes it', async () => {
		const a = await ApiUnderTest.startWithSandbox(backend, cleanup);
		const { sandbox } = a;
		// Another campaign exists, started: a route must not answer for the wrong one.
		expect(
			(
				await a.call('PUT', '/api/campaigns/known', {
					property: sandbox.demo.PropertySid,
					text: 'Hi {{first_name}}',
					rate: 0,
				})
			).status,
		).toBe(201);
		expect(
			(
				await a.call('PUT', '/api/campaigns/known/pages/1', {
					recipients: [{ phone: '+61491570199', first_name: 'Bo' }],
				})
			).status,
		).toBe(200);
		expect((await a.call('POST', '/api/campaigns/known/start')).status).toBe(202);
		await a.ledger.createCampaign({
			name: 'cronly',
			csvPath: '/nowhere/list.csv',
			propertySid: sandbox.demo.PropertySid,
			text: 'Hi',
		});

		for (const name of ['nobody', 'cronly']) {
			for (const route of ROUTES) {
				const what = `${route.method} /api/campaigns/${name}${route.path}`;
				const answer = await a.call(
					route.method,
					`/api/campaigns/${name}${route.path}`,
					route.body,
					route.headers,
				);
				expect(answer.status, what).toBe(WORKER_API_ERROR_STATUS.not_found);
				expect(answer.status, what).toBe(404);
				expect(answer.headers.get('content-type'), what).toMatch(/^application\/json/);
				expect(isWorkerApiErrorBody(answer.body), what).toBe(true);
				expect(answer.body, what).toEqual({
					error: { code: 'not_found', message: `no campaign named "${name}"`, field: 'name' },
				});
			}
		}
		expect(
			(await a.call('GET', '/api/campaigns')).body.campaigns.map((c: { name: string }) => c.name),
		).toEqual(['known']);
		expect(await a.ledger.campaign('cronly')).toMatchObject({ phase: 'importing', paused: false });
	}, 60_000);
});
