import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { key, type CaughtRequest } from '../../support/callbackCatcher';
import { cleanupAfterEach } from '../../support/cleanup';
import { storeBackends } from '../../support/storeBackends';
import { until } from '../daemon/harness';
import { recipients, startCatcher } from './apiHarness';
import { apiWorkerRig } from './apiRig';

const cleanup = cleanupAfterEach();

/** Standard Webhooks, as a receiver checks it with its own code: the signatures of `r` that `secret` makes. */
function signedBy(secret: string, r: CaughtRequest): boolean {
	const content = `${String(r.headers['webhook-id'])}.${String(r.headers['webhook-timestamp'])}.${r.text}`;
	const sig = createHmac('sha256', Buffer.from(secret.slice(6), 'base64'))
		.update(content)
		.digest('base64');
	return String(r.headers['webhook-signature'] ?? '')
		.split(' ')
		.includes(`v1,${sig}`);
}

const secret = () => `whsec_${randomBytes(32).toString('base64')}`;

/**
 * An API campaign's own `signingSecret` signs its events instead of the worker's
 * `signing.secret`, and no answer shows it. Not about the store: SQLite only.
 */
describe.each(storeBackends().slice(0, 1))(
	'an API campaign signing its events ($name)',
	(backend) => {
		it("signs its events with its own secret, not the worker's; answers mask it; a bad one is refused by name", async () => {
			const own = await startCatcher(cleanup);
			const WORKER = secret();
			const CAMPAIGN = secret();
			const { sandbox, start, call } = await apiWorkerRig(backend, cleanup, {
				config: { signing: { secret: WORKER } },
			});
			await start();
			const settings = { property: sandbox.demo.PropertySid, text: 'Hi {{first_name}}' };
			const bad = await call('PUT', '/campaigns/signed', { ...settings, signingSecret: 'hunter2' });
			expect(bad.status).toBe(400);
			expect(JSON.stringify(bad.body)).toContain('signingSecret must be whsec_');

			const made = await call('PUT', '/campaigns/signed', {
				...settings,
				events: `${own.url}/signed`,
				signingSecret: CAMPAIGN,
			});
			expect(made.status).toBe(201);
			expect(JSON.stringify(made.body)).not.toContain(CAMPAIGN.slice(6));
			expect(made.body.campaign.settings.signingSecret).toBe('whsec_********');
			// Made again with another secret: a conflict that names the setting, not the secrets.
			const clash = await call('PUT', '/campaigns/signed', {
				...settings,
				events: `${own.url}/signed`,
				signingSecret: WORKER,
			});
			expect(clash.status).toBe(409);
			expect(JSON.stringify(clash.body)).not.toContain(CAMPAIGN.slice(6));
			expect(JSON.stringify(clash.body)).not.toContain(WORKER.slice(6));

			await call('PUT', '/campaigns/signed/pages/1', {
				recipients: recipients(0, 1, '+614915750'),
			});
			expect((await call('POST', '/campaigns/signed/start', { pages: 1 })).status).toBe(202);
			await until(
				() => own.requests.some((r) => key(r) === 'campaign.finished:signed'),
				30_000,
				'the finished event',
			);
			for (const r of own.requests) {
				expect(r.headers['webhook-id']).toBe(key(r));
				expect(signedBy(CAMPAIGN, r)).toBe(true);
				expect(signedBy(WORKER, r)).toBe(false);
			}
			expect(JSON.stringify((await call('GET', '/campaigns/signed')).body)).not.toContain(
				CAMPAIGN.slice(6),
			);
		}, 90_000);
	},
);
