import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { unionColumns } from '../../../worker/src/daemon/api/recipientColumns';
import { cleanupAfterEach } from '../../support/cleanup';
import { storeBackends } from '../../support/storeBackends';
import { ApiUnderTest } from './apiHarness';

const cleanup = cleanupAfterEach();
const sqlite = storeBackends().filter((b) => b.name === 'sqlite');

/** 28 recipients, each with 199 long columns no other has: a CSV header over the engine's 1,000,000 characters. */
function headerBomb() {
	return Array.from({ length: 28 }, (_, r) => {
		const recipient: Record<string, string> = { phone: `+614915701${String(r).padStart(2, '0')}` };
		for (let c = 0; c < 199; c++) recipient[`k${r}_${c}_`.padEnd(190, 'x')] = 'v';
		return recipient;
	});
}

/** What the API answers names the campaign's recipients, never a file of the server's (beside its database). */
describe.each(sqlite)('API errors ($name)', (backend) => {
	it("name no server path: a preview the engine refuses names the recipients' CSV, not where it is", async () => {
		const api = await ApiUnderTest.startWithSandbox(backend, cleanup);
		const location = backend.location();
		const dbDir = location.kind === 'sqlite' ? location.path.replace(/\/[^/]+$/, '') : '';
		expect(
			(
				await api.call('PUT', '/api/campaigns/wide', {
					property: api.sandbox.demo.PropertySid,
					text: 'Hi',
				})
			).status,
		).toBe(201);
		// Stored as a worker before the column cap took it (the API now refuses it: too_many_columns).
		const recipients = headerBomb();
		const body = JSON.stringify(recipients);
		await api.api.store.putPage(
			'wide',
			{
				page: 1,
				hash: createHash('sha256').update(body).digest('hex'),
				recipients: recipients.length,
				columns: unionColumns(recipients.map((r) => Object.keys(r))),
				body,
			},
			Date.now(),
		);
		const preview = await api.call('GET', '/api/campaigns/wide/preview');
		expect(preview.status).toBe(400);
		const text = JSON.stringify(preview.body);
		expect(text).toMatch(/the header of the recipients' CSV \(line 1\) cannot be read/);
		expect(text).not.toContain(dbDir);
		expect(text).not.toContain('.api/');
	});
});
