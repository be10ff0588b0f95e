import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../support/cleanup';
import { storeBackends } from '../../support/storeBackends';
import { until } from '../daemon/harness';
import { ApiUnderTest, recipients } from './apiHarness';

const cleanup = cleanupAfterEach();

describe.each(storeBackends())('campaign API routes ($name)', (backend) => {
	const api = () => ApiUnderTest.startWithSandbox(backend, cleanup);

	it('creates, takes pages, starts and sends a campaign through the sandbox', async () => {
		const a = await api();
		const settings = {
			property: a.sandbox.demo.PropertySid,
			text: 'Hi {{first_name}}',
			defaultCountry: 'AU',
			rate: 0,
		};
		const created = await a.call('PUT', '/api/campaigns/spring', settings);
		expect(created.status).toBe(201);
		expect(created.body.campaign).toMatchObject({
			name: 'spring',
			state: 'draft',
			settings: { ...settings, receipts: true, replies: true },
		});
		expect((await a.call('PUT', '/api/campaigns/spring', settings)).status).toBe(200);
		const conflict = await a.call('PUT', '/api/campaigns/spring', {
			...settings,
			text: 'Bye',
			rate: 5,
		});
		expect(conflict.status).toBe(409);
		expect(conflict.body.error).toMatchObject({
			code: 'conflict',
			message: 'campaign "spring" exists with other settings: text, rate',
			differences: [
				{ setting: 'text', stored: 'Hi {{first_name}}', given: 'Bye' },
				{ setting: 'rate', stored: 0, given: 5 },
			],
		});

		const p1 = await a.call('PUT', '/api/campaigns/spring/pages/1', {
			recipients: recipients(0, 30),
		});
		expect(p1).toMatchObject({
			status: 200,
			body: { page: 1, recipients: 30, pages: 1, totalRecipients: 30 },
		});
		const p2 = await a.call('PUT', '/api/campaigns/spring/pages/2', {
			recipients: [...recipients(30, 9), { phone: 'not a number', first_name: 'X' }],
		});
		expect(p2.body).toEqual({ page: 2, recipients: 10, pages: 2, totalRecipients: 40 });
		expect(
			(
				await a.call('PUT', '/api/campaigns/spring/pages/2', {
					recipients: [...recipients(30, 9), { phone: 'not a number', first_name: 'X' }],
				})
			).body,
		).toEqual({ page: 2, recipients: 10, pages: 2, totalRecipients: 40, unchanged: true });
		const other = await a.call('PUT', '/api/campaigns/spring/pages/2', {
			recipients: recipients(50, 10),
		});
		expect(other.status).toBe(409);
		expect(other.body.error.code).toBe('page_conflict');

		const missing = await a.call('POST', '/api/campaigns/spring/start', { pages: 4 });
		expect(missing.status).toBe(409);
		expect(missing.body.error).toMatchObject({ code: 'pages_missing', missing: [3, 4] });

		const preview = await a.call('GET', '/api/campaigns/spring/preview?pricePerSegment=0.05');
		expect(preview.status).toBe(200);
		expect(preview.body).toMatchObject({
			recipients: 40,
			valid: 39,
			invalid: 1,
			duplicates: 0,
			suppressed: 0,
			segments: 39,
			messages: 39,
			cost: 1.95,
		});
		expect(preview.body.problems).toEqual([expect.objectContaining({ line: 41, recipient: 40 })]);

		const started = await a.call('POST', '/api/campaigns/spring/start', { pages: 2 });
		expect(started.status).toBe(202);
		expect(['sending', 'finished']).toContain(started.body.campaign.state);
		expect((await a.call('POST', '/api/campaigns/spring/start')).status).toBe(200);
		const late = await a.call('PUT', '/api/campaigns/spring/pages/3', {
			recipients: recipients(60, 1),
		});
		expect(late.status).toBe(409);
		expect(late.body.error.code).toBe('started');

		await until(
			async () => (await a.call('GET', '/api/campaigns/spring')).body.campaign.state === 'finished',
			30_000,
		);
		const done = (await a.call('GET', '/api/campaigns/spring')).body.campaign;
		expect(done.counts).toMatchObject({
			recipients: 40,
			pending: 0,
			accepted: 39,
			invalid: 1,
			rejected: 0,
			uncertain: 0,
		});
		expect(done.finishedAt).toBeDefined();
		const report = await a.call('GET', '/api/campaigns/spring/report');
		expect(report.status).toBe(200);
		expect(report.body.campaign).toBe('spring');
		expect((await a.call('GET', '/api/campaigns')).body).toEqual({
			campaigns: [{ name: 'spring', state: 'finished' }],
		});
		expect((await a.call('POST', '/api/campaigns/spring/pause')).status).toBe(409);
		expect((await a.call('GET', '/api/campaigns/spring/preview')).body.error.code).toBe('conflict');
	}, 60_000);

	it('refuses with the codes of the contract', async () => {
		const a = await api();
		const bad = await fetch(`${a.url}/api/campaigns`, {
			headers: { authorization: 'Bearer wrong-token-0123456789' },
		});
		expect(bad.status).toBe(401);
		expect(bad.headers.get('www-authenticate')).toMatch(/^Bearer/);
		expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
		expect((await fetch(`${a.url}/api/openapi.json`)).status).toBe(401);
		expect((await a.call('GET', '/api/campaigns/nope')).body.error.code).toBe('not_found');
		expect((await a.call('GET', '/api/campaigns/nope')).status).toBe(404);
		expect((await a.call('GET', '/api/nothing/here')).status).toBe(404);
		const settings = { property: a.sandbox.demo.PropertySid, text: 'Hi' };
		const invalid = await a.call('PUT', '/api/campaigns/x', {
			...settings,
			rate: -1,
			colour: 'red',
		});
		expect(invalid.status).toBe(400);
		expect(invalid.body.error.code).toBe('invalid');
		expect(invalid.body.error.problems.map((p: { field: string }) => p.field).sort()).toEqual([
			'colour',
			'rate',
		]);
		expect(
			(
				await a.call('PUT', '/api/campaigns/x', '{"property":', {
					'content-type': 'application/json',
				})
			).body.error,
		).toMatchObject({ code: 'invalid', field: 'body' });
		expect(
			(
				await a.call('PUT', '/api/campaigns/x', 'property=1', {
					'content-type': 'application/x-www-form-urlencoded',
				})
			).status,
		).toBe(415);
		expect((await a.call('PUT', '/api/campaigns/x', settings)).status).toBe(201);
		const badPage = await a.call('PUT', '/api/campaigns/x/pages/1', {
			recipients: [{ phone: '+61491570101' }, { phone: { nested: true } }],
		});
		expect(badPage.status).toBe(400);
		expect(badPage.body.error.field).toBe('recipients[1].phone');
		expect(
			(await a.call('PUT', '/api/campaigns/x/pages/0', { recipients: recipients(0, 1) })).body.error
				.field,
		).toBe('page');
		expect(
			(await a.call('PUT', '/api/campaigns/x/pages/100001', { recipients: recipients(0, 1) }))
				.status,
		).toBe(400);
		expect(
			(await a.call('PUT', '/api/campaigns/x/pages/1', { recipients: recipients(0, 10_001) })).body
				.error.code,
		).toBe('invalid');
		const huge = await a.call('PUT', '/api/campaigns/x/pages/1', {
			recipients: [{ phone: '+61491570101', blob: 'x'.repeat(17 * 1024 * 1024) }],
		});
		expect(huge.status).toBe(413);
		expect(huge.body.error.code).toBe('too_large');
		expect(
			(await a.call('PUT', '/api/campaigns/x', { ...settings, text: 'x'.repeat(70_000) })).status,
		).toBe(413);
		const none = await a.call('POST', '/api/campaigns/x/start');
		expect(none.status).toBe(409);
		expect(none.body.error.code).toBe('pages_missing');
		expect(
			(
				await a.call('PUT', '/api/campaigns/x/pages/1', {
					recipients: [{ mobile_no: '+61491570101' }],
				})
			).status,
		).toBe(200);
		const noColumn = await a.call('POST', '/api/campaigns/x/start');
		expect(noColumn.status).toBe(400);
		expect(noColumn.body.error.field).toBe('toColumn');
		expect((await a.call('POST', '/api/campaigns/x/pause')).body.error.code).toBe('conflict');
		expect(
			(
				await a.call('PUT', '/api/campaigns/x/csv', 'Phone\n+61491570101\n', {
					'content-type': 'text/csv',
				})
			).body.error.code,
		).toBe('conflict');
	}, 60_000);

	it('DELETE takes a draft with its pages, so the name is free for other settings and pages; one sending is refused', async () => {
		const a = await api();
		const settings = { property: a.sandbox.demo.PropertySid, text: 'Hi {{first_name}}', rate: 1 };
		await a.call('PUT', '/api/campaigns/d', settings);
		await a.call('PUT', '/api/campaigns/d/pages/1', { recipients: recipients(0, 3) });
		expect(await a.call('DELETE', '/api/campaigns/d')).toMatchObject({
			status: 200,
			body: { deleted: { name: 'd', state: 'draft' } },
		});
		expect((await a.call('GET', '/api/campaigns/d')).status).toBe(404);
		expect((await a.call('DELETE', '/api/campaigns/d')).body.error.code).toBe('not_found');
		expect(
			(await a.call('PUT', '/api/campaigns/d', { ...settings, text: 'Bye {{first_name}}' })).status,
		).toBe(201);
		expect(
			(await a.call('PUT', '/api/campaigns/d/pages/1', { recipients: recipients(10, 2) })).body,
		).toEqual({ page: 1, recipients: 2, pages: 1, totalRecipients: 2 });
		await a.call('POST', '/api/campaigns/d/start');
		const refused = await a.call('DELETE', '/api/campaigns/d');
		expect(refused.status).toBe(409);
		expect(refused.body.error.message).toMatch(
			/^campaign "d" is (sending|scheduled): cancel it first/,
		);
	});

	it('serves an OpenAPI 3.1 document of every route', async () => {
		const a = await api();
		const doc = (await a.call('GET', '/api/openapi.json')).body;
		expect(doc.openapi).toBe('3.1.0');
		expect(Object.keys(doc.paths).sort()).toEqual([
			'/api/campaigns',
			'/api/campaigns/{name}',
			'/api/campaigns/{name}/cancel',
			'/api/campaigns/{name}/csv',
			'/api/campaigns/{name}/evidence',
			'/api/campaigns/{name}/pages/{page}',
			'/api/campaigns/{name}/pause',
			'/api/campaigns/{name}/preview',
			'/api/campaigns/{name}/report',
			'/api/campaigns/{name}/resume',
			'/api/campaigns/{name}/start',
			'/api/openapi.json',
		]);
		expect(Object.keys(doc.paths['/api/campaigns/{name}']).sort()).toEqual([
			'delete',
			'get',
			'put',
		]);
		expect(
			doc.paths['/api/campaigns/{name}'].put.requestBody.content['application/json'].schema
				.properties.rate,
		).toEqual(
			expect.objectContaining({
				anyOf: expect.arrayContaining([expect.objectContaining({ type: 'number', minimum: 0 })]),
			}),
		);
		expect(
			Object.keys(doc.paths['/api/campaigns/{name}/pages/{page}'].put.responses).sort(),
		).toEqual(['200', '400', '401', '404', '409', '413', '415']);
		// Every route of the document answers (401 without the token, never 404: the routes are the document's).
		for (const [path, ops] of Object.entries(
			doc.paths as Record<string, Record<string, unknown>>,
		)) {
			for (const method of Object.keys(ops)) {
				const res = await fetch(a.url + path.replace('{name}', 'x').replace('{page}', '1'), {
					method: method.toUpperCase(),
				});
				expect(res.status, `${method} ${path}`).toBe(401);
			}
		}
	});
});
