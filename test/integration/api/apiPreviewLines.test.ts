import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../support/cleanup';
import { storeBackends } from '../../support/storeBackends';
import { ApiUnderTest } from './apiHarness';

const cleanup = cleanupAfterEach();
const sqlite = storeBackends().filter((b) => b.name === 'sqlite');

/**
 * The rows come from the pages themselves, not from a CSV written of them: a value holding
 * a line break no longer shifts the lines after it (a CSV made it span two), so every
 * recipient's line is its place, n + 1, and the preview names it by `recipient` too.
 */
describe.each(sqlite)('the lines of a preview ($name)', (backend) => {
	it('are the recipients’ places, whatever a value before them holds', async () => {
		const api = await ApiUnderTest.startWithSandbox(backend, cleanup);
		expect(
			(
				await api.call('PUT', '/api/campaigns/lines', {
					property: api.sandbox.demo.PropertySid,
					text: 'Hi {{first_name}}',
				})
			).status,
		).toBe(201);
		const recipients = [
			{ phone: '+61491570101', first_name: 'Ann\nMarie' },
			{ phone: '+61491570102', first_name: 'Bob' },
			{ phone: 'not a number', first_name: 'Cy' },
		];
		expect((await api.call('PUT', '/api/campaigns/lines/pages/1', { recipients })).status).toBe(
			200,
		);
		const preview = await api.call('GET', '/api/campaigns/lines/preview');
		expect(preview.status).toBe(200);
		expect(preview.body).toMatchObject({ recipients: 3, valid: 2, invalid: 1 });
		expect(preview.body.problems).toEqual([expect.objectContaining({ line: 4, recipient: 3 })]);
		expect(
			preview.body.samples.map((s: { line: number; recipient: number }) => [s.line, s.recipient]),
		).toEqual([
			[2, 1],
			[3, 2],
		]);
	});
});
