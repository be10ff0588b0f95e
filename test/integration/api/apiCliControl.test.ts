import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../support/cleanup';
import { storeBackends } from '../../support/storeBackends';
import { until } from '../daemon/harness';
import { cli } from '../worker/harness';
import { ApiUnderTest, recipients } from './apiHarness';

const cleanup = cleanupAfterEach();

// The CLI and the API act on one state: what either did, the other sees and undoes.
describe.each(storeBackends())('one control from the CLI and the API ($name)', (backend) => {
	it('pauses with one, resumes with the other, cancels and deletes from the CLI', async () => {
		const a = await ApiUnderTest.startWithSandbox(backend, cleanup);
		const location = backend.location();
		const db = location.kind === 'sqlite' ? location.path : location.url;
		const accepted = async () =>
			(await a.call('GET', '/api/campaigns/winter')).body.campaign.counts.accepted as number;
		const sendsAgain = async (from: number) =>
			until(async () => (await accepted()) > from, 20_000, 'a message sent after the resume');
		const settings = { property: a.sandbox.demo.PropertySid, text: 'Hi {{first_name}}', rate: 5 };
		expect(
			(await a.call('PUT', '/api/campaigns/winter', { ...settings, batchSize: 1 })).status,
		).toBe(201);
		// 30 s at 5 a second: its four CLI starts on a loaded machine come long before its end.
		await a.call('PUT', '/api/campaigns/winter/pages/1', { recipients: recipients(0, 150) });
		expect((await a.call('POST', '/api/campaigns/winter/start')).status).toBe(202);
		await until(async () => (await accepted()) >= 2, 20_000, 'the first sends');

		// Paused from the CLI, resumed through the API.
		expect((await cli(['campaign', 'pause', '--db', db, '--name', 'winter'])).code).toBe(0);
		expect((await a.call('GET', '/api/campaigns/winter')).body.campaign.state).toBe('paused');
		const resumed = await a.call('POST', '/api/campaigns/winter/resume');
		expect(resumed.status).toBe(200);
		expect(resumed.body.campaign.state).toBe('sending');
		await sendsAgain(await accepted());

		// Paused through the API, resumed from the CLI.
		expect((await a.call('POST', '/api/campaigns/winter/pause')).body.campaign.state).toBe(
			'paused',
		);
		const cliResume = await cli(['campaign', 'resume', '--db', db, '--name', 'winter']);
		expect(cliResume.code, cliResume.stderr).toBe(0);
		expect((await a.call('GET', '/api/campaigns/winter')).body.campaign.state).toBe('sending');
		await sendsAgain(await accepted());

		// Cancelled from the CLI: the API says so at once, and the run stops.
		expect((await cli(['campaign', 'cancel', '--db', db, '--name', 'winter'])).code).toBe(0);
		expect((await a.call('GET', '/api/campaigns/winter')).body.campaign.state).toBe('cancelled');
		await until(
			async () => (await a.call('GET', '/api/campaigns/winter')).body.campaign.counts.pending === 0,
			20_000,
			'the pending rows cancelled',
		);
		expect((await a.call('POST', '/api/campaigns/winter/resume')).body.error.code).toBe('conflict');

		// Deleted from the CLI: the name is free for the API too.
		await until(() => !a.api.runner.isRunning('winter'), 20_000, 'the run to stop');
		const deleted = await cli(['campaign', 'delete', '--db', db, '--name', 'winter', '--force']);
		expect(deleted.code, deleted.stderr).toBe(0);
		expect((await a.call('GET', '/api/campaigns/winter')).status).toBe(404);
		expect((await a.call('GET', '/api/campaigns')).body.campaigns).toEqual([]);
		expect((await a.call('PUT', '/api/campaigns/winter', settings)).status).toBe(201);
	}, 60_000);

	it('lists each campaign in the state its status shows', async () => {
		const a = await ApiUnderTest.startWithSandbox(backend, cleanup);
		// Beyond the provider's 14 days: the worker holds it, so it stays started and sends nothing.
		const schedule = new Date(Date.now() + 20 * 86_400_000).toISOString();
		await a.call('PUT', '/api/campaigns/later', {
			property: a.sandbox.demo.PropertySid,
			text: 'Hi {{first_name}}',
			schedule,
		});
		await a.call('PUT', '/api/campaigns/later/pages/1', { recipients: recipients(0, 3) });
		await a.call('POST', '/api/campaigns/later/start');
		await until(() => a.ledger.campaign('later'), 20_000, 'the import');
		// Paused in the ledger alone, as `cloudtel campaign pause` of the previous release left it.
		await a.ledger.setPaused('later', true);
		const status = (await a.call('GET', '/api/campaigns/later')).body.campaign.state;
		expect(status).toBe('paused');
		expect((await a.call('GET', '/api/campaigns')).body.campaigns).toEqual([
			{ name: 'later', state: status },
		]);
	}, 30_000);
});
