import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../support/cleanup';
import { storeBackends } from '../../support/storeBackends';
import { ApiUnderTest } from './apiHarness';

const cleanup = cleanupAfterEach();
const sqlite = storeBackends().filter((b) => b.name === 'sqlite');

/** `count` recipients, each with 199 columns no other has (the red team's page: 1.5 MB for 500). */
function mismatched(count: number) {
	return Array.from({ length: count }, (_, r) => {
		const recipient: Record<string, string> = { phone: `+6149157${String(r).padStart(4, '0')}` };
		for (let c = 0; c < 199; c++) recipient[`r${r}c${c}`] = 'v';
		return recipient;
	});
}

/**
 * Keys that differ from recipient to recipient made one CSV column each for every recipient:
 * 700 x 199 gave a 294 MB file and stalled the worker 23 s. A campaign's pages hold at most
 * 100 distinct columns; a page past it is refused at once, naming the first extra key (its
 * time is the bench's to measure, not a test's: under a loaded CI a second was not enough).
 */
describe.each(sqlite)("columns across a campaign's pages ($name)", (backend) => {
	it('700 recipients of 199 keys each: refused too_many_columns at the first extra key, naming it; across pages too', async () => {
		const api = await ApiUnderTest.startWithSandbox(backend, cleanup);
		expect(
			(
				await api.call('PUT', '/api/campaigns/wide', {
					property: api.sandbox.demo.PropertySid,
					text: 'Hi',
				})
			).status,
		).toBe(201);
		const page = JSON.stringify({ recipients: mismatched(700) });
		const refused = await api.call('PUT', '/api/campaigns/wide/pages/1', page, {
			'content-type': 'application/json',
		});
		expect(refused.status).toBe(400);
		expect(refused.body.error).toMatchObject({
			code: 'too_many_columns',
			field: 'r0c99',
			message: expect.stringMatching(
				/more than 100 distinct columns across its pages, from "r0c99" on/,
			),
		});
		expect((await api.call('GET', '/api/campaigns/wide')).body.campaign.counts.recipients).toBe(0);

		// 60 columns on page 1, 60 others on page 2: the second is the one past 100.
		const cols = (from: number) =>
			Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`k${from + i}`, 'v']));
		expect(
			(
				await api.call('PUT', '/api/campaigns/wide/pages/1', {
					recipients: [{ phone: '+61491570101', ...cols(0) }],
				})
			).status,
		).toBe(200);
		const second = await api.call('PUT', '/api/campaigns/wide/pages/2', {
			recipients: [{ phone: '+61491570102', ...cols(60) }],
		});
		expect(second.body.error).toMatchObject({ code: 'too_many_columns', field: 'k99' });
		// The same columns again are no new ones.
		expect(
			(
				await api.call('PUT', '/api/campaigns/wide/pages/2', {
					recipients: [{ phone: '+61491570102', ...cols(0) }],
				})
			).status,
		).toBe(200);
	});

	it('a body nested a million deep (15 MB) is refused before it is parsed, naming the body', async () => {
		const api = await ApiUnderTest.startWithSandbox(backend, cleanup);
		expect(
			(
				await api.call('PUT', '/api/campaigns/deep', {
					property: api.sandbox.demo.PropertySid,
					text: 'Hi',
				})
			).status,
		).toBe(201);
		const n = 1_000_000;
		const page = `{"recipients": ${'[{"a":'.repeat(n / 2)}1${'}]'.repeat(n / 2)}}`;
		const refused = await api.call('PUT', '/api/campaigns/deep/pages/1', page, {
			'content-type': 'application/json',
		});
		expect(refused.status).toBe(400);
		expect(refused.body.error).toMatchObject({
			code: 'invalid',
			field: 'body',
			message: expect.stringMatching(/nests objects and arrays more than 32 deep/),
		});
		// A string holding brackets is no nesting.
		expect(
			(
				await api.call('PUT', '/api/campaigns/deep/pages/1', {
					recipients: [{ phone: '+61491570101', note: '[[[['.repeat(20) }],
				})
			).status,
		).toBe(200);
	});
});
