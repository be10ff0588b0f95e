import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../support/cleanup';
import { storeBackends } from '../../support/storeBackends';
import { SandboxDriver, until } from '../daemon/harness';
import { cli } from '../worker/harness';
import { ApiUnderTest, recipients } from './apiHarness';

const cleanup = cleanupAfterEach();

const [sqlite] = storeBackends();

// One state for a campaign: the start puts an API campaign in the ledger, where every
// interface pauses and resumes it, before any worker has run it.
describe('an API campaign started while no worker runs it', () => {
	it('is in the ledger at once: paused from the CLI, resumed, then sent by the run as started', async () => {
		const a = await ApiUnderTest.startWithSandbox(sqlite, cleanup, { run: false });
		const location = sqlite.location();
		const db = location.kind === 'sqlite' ? location.path : location.url;
		const state = async () => (await a.call('GET', '/api/campaigns/dawn')).body.campaign.state;
		await a.call('PUT', '/api/campaigns/dawn', {
			property: a.sandbox.demo.PropertySid,
			text: 'Hi {{first_name}}',
		});
		await a.call('PUT', '/api/campaigns/dawn/pages/1', { recipients: recipients(0, 5) });
		expect((await a.call('POST', '/api/campaigns/dawn/start')).status).toBe(202);
		expect(await a.ledger.campaign('dawn')).toMatchObject({
			phase: 'importing',
			paused: false,
			spec: { text: 'Hi {{first_name}}', propertySid: a.sandbox.demo.PropertySid },
		});

		const paused = await cli(['campaign', 'pause', '--db', db, '--name', 'dawn']);
		expect(paused.code, paused.stderr).toBe(0);
		expect((await a.ledger.campaign('dawn'))?.paused).toBe(true);
		expect(await state()).toBe('paused');
		expect((await a.api.store.campaign('dawn'))?.state).toBe('started');
		expect((await a.call('POST', '/api/campaigns/dawn/resume')).body.campaign.state).toBe(
			'sending',
		);

		a.api.start();
		await until(async () => (await state()) === 'finished', 30_000, 'the run to finish');
		const sent = await new SandboxDriver(a.sandbox).messages();
		expect(sent.map((m) => String(m.Text)).sort()).toEqual([
			'Hi N0',
			'Hi N1',
			'Hi N2',
			'Hi N3',
			'Hi N4',
		]);
		// The run took up the campaign the start made, not one of its own.
		const events = a.lines.map((l) => JSON.parse(l) as { msg: string; resumed?: boolean });
		expect(events.some((l) => /replaced|had sent nothing/.test(l.msg))).toBe(false);
		// Its first run, which its log says so.
		expect(events.filter((l) => l.msg === 'campaign start').map((l) => l.resumed)).toEqual([false]);
	}, 45_000);

	it('that fails before its import (a property the provider does not know) leaves the ledger as it was', async () => {
		const a = await ApiUnderTest.startWithSandbox(sqlite, cleanup);
		const status = async () => (await a.call('GET', '/api/campaigns/dusk')).body.campaign;
		await a.call('PUT', '/api/campaigns/dusk', {
			property: '0b6f1c2e-3d4a-4b5c-8d9e-0f1a2b3c4d5e',
			text: 'Hi {{first_name}}',
		});
		await a.call('PUT', '/api/campaigns/dusk/pages/1', { recipients: recipients(0, 2) });
		expect((await a.call('POST', '/api/campaigns/dusk/start')).status).toBe(202);
		await until(async () => (await status()).state === 'failed', 30_000, 'the run to fail');
		expect((await status()).reason).toMatch(/^property: /);
		expect(await a.ledger.campaign('dusk')).toBeUndefined();
		expect((await a.call('GET', '/api/campaigns')).body.campaigns).toEqual([
			{ name: 'dusk', state: 'failed' },
		]);
		expect((await a.call('DELETE', '/api/campaigns/dusk')).status).toBe(200);
	}, 45_000);
});
