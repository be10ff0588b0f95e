import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { CampaignSettings } from '../../../api';
import { campaignStatusOf } from '../../../worker/src/daemon/api/campaignStatusOf';
import type { EndState } from '../../../worker/src/storage/apiCampaignStore';
import type { KeyedForward } from '../../../worker/src/storage/daemonStore';
import type { DbLocation } from '../../../worker/src/storage/dbLocation';
import { openApiCampaignStore } from '../../../worker/src/storage/openApiCampaignStore';
import { openLedger } from '../../../worker/src/storage/openStores';
import { SCHEMA_VERSION } from '../../../worker/src/storage/schema';
import { cleanupAfterEach } from '../../support/cleanup';
import { sql } from '../../support/postgres/database';
import { storeBackends } from '../../support/storeBackends';

const cleanup = cleanupAfterEach();

const SETTINGS: CampaignSettings = {
	property: '0b6f1c2e-3d4a-4b5c-8d9e-0f1a2b3c4d5e',
	text: 'Hi {{first_name}}',
};
const PAGE = {
	page: 1,
	hash: 'h1',
	recipients: 1,
	columns: ['phone'],
	body: '[{"phone":"+61491570156"}]',
};

/** One statement on the database itself, as a person (or a release of cloudtel) would. */
async function exec(location: DbLocation, text: string, values: unknown[] = []): Promise<void> {
	if (location.kind === 'postgres') {
		await sql(location.url, text, values);
		return;
	}
	const db = new Database(location.path);
	try {
		db.prepare(text.replace(/\$\d+/g, '?')).run(...values);
	} finally {
		db.close();
	}
}

/** The campaign events queued for sending, by key. */
async function queued(location: DbLocation): Promise<string[]> {
	const text = 'SELECT event_key FROM forwards ORDER BY id';
	if (location.kind === 'postgres')
		return (await sql<{ event_key: string }>(location.url, text)).map((r) => r.event_key);
	const db = new Database(location.path, { readonly: true });
	try {
		return db.prepare(text).pluck().all() as string[];
	} finally {
		db.close();
	}
}

const pausedEvent = (name: string, at: number): KeyedForward[] => [
	{
		eventKey: `campaign.paused:${name}:${at}`,
		actionKey: 'events.post',
		payload: { action: { type: 'post' } } as KeyedForward['payload'],
	},
];

/**
 * Schema 11 kept a cancel an API campaign's run had yet to settle as its `cancelling`, and
 * a pause on its record beside the ledger's flag; from 12 and 13 the ledger alone holds
 * both once the run has made its campaign, and from 14 every started campaign is in the
 * ledger. A live database of 11 with campaigns in every state opens with each shown as
 * before, and the one a run was settling is left for the next worker to finish.
 */
describe.each(storeBackends())(
	'a schema 11 database with API campaigns in every state ($name)',
	(backend) => {
		it('opens with every started campaign in the ledger, holding its pause and cancel, each shown as before', async () => {
			const location = backend.location();
			let ledger = await openLedger(location);
			let api = await openApiCampaignStore(location, ledger);
			const paths: Record<string, ('started' | EndState)[]> = {
				draft: [],
				sending: ['started'],
				resting: ['started'],
				held: ['started'],
				early: ['started'],
				queued: ['started'],
				winding: ['started'],
				orphan: ['started'],
				done: ['started', 'finished'],
				stopped: ['started', 'cancelled'],
				broken: ['started', 'failed'],
			};
			// Schema 11's run made the ledger campaign: those whose run had yet to begin have none.
			const unrun = ['orphan', 'early', 'queued'];
			for (const [name, path] of Object.entries(paths)) {
				await api.create(name, SETTINGS, 1000);
				await api.putPage(name, PAGE, 1000);
				for (const to of path)
					expect(
						to === 'started'
							? await api.start(name, specOf(name), 2000)
							: await api.end(name, ['started'], to, 2000),
					).toBe(true);
				if (unrun.includes(name))
					await exec(location, 'DELETE FROM campaigns WHERE name = $1', [name]);
			}
			await ledger.setPhase('winding', 'cancelled');
			// Paused in both, as 11 wrote a pause; `held` as a resume cut off between its two writes left it.
			await ledger.setPaused('resting', true);
			await api.close();
			await ledger.close();
			// As schema 11 left them: a pause and a cancel on the API's record, the version 11.
			for (const name of ['resting', 'held', 'early'])
				await exec(location, `UPDATE api_campaigns SET state = 'paused' WHERE name = $1`, [name]);
			for (const name of ['winding', 'orphan'])
				await exec(
					location,
					`UPDATE api_campaigns SET state = 'cancelling', reason = 'cancelled through the API', finished_at = 3000 WHERE name = $1`,
					[name],
				);
			await exec(location, 'UPDATE cloudtel_schema SET version = 11 WHERE version = $1', [
				SCHEMA_VERSION,
			]);
			await exec(location, `UPDATE meta SET value = '11' WHERE key = 'schema'`);

			ledger = await openLedger(location);
			api = await openApiCampaignStore(location, ledger);
			cleanup.push(
				() => api.close(),
				() => ledger.close(),
			);
			const shown: Record<string, string> = {};
			for (const name of Object.keys(paths)) {
				const record = (await api.campaign(name))!;
				shown[name] = (await campaignStatusOf(record, api, ledger, 4000)).state;
			}
			expect(shown).toEqual({
				draft: 'draft',
				sending: 'sending',
				resting: 'paused',
				held: 'paused',
				early: 'paused',
				queued: 'sending',
				winding: 'cancelled',
				orphan: 'cancelled',
				done: 'finished',
				stopped: 'cancelled',
				broken: 'failed',
			});
			const winding = await campaignStatusOf((await api.campaign('winding'))!, api, ledger, 4000);
			expect(winding).toMatchObject({
				reason: 'cancelled through the API',
				finishedAt: new Date(3000).toISOString(),
			});
			expect(await ledger.campaign('winding')).toMatchObject({
				phase: 'cancelled',
				cancelledBy: { reason: 'cancelled through the API', at: 3000 },
			});
			// Paused in the ledger alone, a campaign made there for the one whose run had not begun.
			for (const name of ['resting', 'held', 'early']) {
				expect((await api.campaign(name))?.state).toBe('started');
				expect((await ledger.campaign(name))?.paused).toBe(true);
			}
			expect(await ledger.campaign('queued')).toMatchObject({
				phase: 'importing',
				paused: false,
				spec: { name: 'queued', propertySid: SETTINGS.property, text: SETTINGS.text },
			});
			// A worker takes it up to finish the cancel and announce it; the one no run had made ends now.
			expect((await api.campaignsToRun()).map((c) => c.name)).toEqual([
				'queued',
				'sending',
				'winding',
			]);
			expect((await api.campaign('orphan'))?.state).toBe('cancelled');
			expect((await api.pageTotals('orphan')).recipients).toBe(0);
			expect((await api.pageTotals('winding')).recipients).toBe(1);
		});
	},
);

/** A ledger and an API store on this backend, closed after the test, with these campaigns started (a page each). */
async function startedCampaigns(
	backend: ReturnType<typeof storeBackends>[number],
	names: string[],
) {
	const location = backend.location();
	const ledger = await openLedger(location);
	const api = await openApiCampaignStore(location, ledger);
	cleanup.push(
		() => api.close(),
		() => ledger.close(),
	);
	for (const name of names) {
		await api.create(name, SETTINGS, 1000);
		await api.putPage(name, PAGE, 1000);
		expect(await api.start(name, specOf(name), 2000)).toBe(true);
	}
	return { location, ledger, api };
}

const specOf = (name: string) => ({
	name,
	csvPath: "the recipients' CSV",
	propertySid: SETTINGS.property,
	text: SETTINGS.text,
});

describe.each(storeBackends())('the start of an API campaign ($name)', (backend) => {
	it('makes its ledger campaign in the same write, once, with the start event', async () => {
		const { location, ledger, api } = await startedCampaigns(backend, []);
		await api.create('spring', SETTINGS, 1000);
		await api.putPage('spring', PAGE, 1000);
		const started = [
			{ ...pausedEvent('spring', 2000)[0], eventKey: 'campaign.started:spring' },
		] satisfies KeyedForward[];
		expect(await api.start('spring', specOf('spring'), 2000, started)).toBe(true);
		expect(await api.start('spring', { ...specOf('spring'), text: 'Other' }, 2001, started)).toBe(
			false,
		);
		expect(await ledger.campaign('spring')).toMatchObject({
			phase: 'importing',
			paused: false,
			spec: specOf('spring'),
		});
		expect((await api.campaign('spring'))?.state).toBe('started');
		expect(await queued(location)).toEqual(['campaign.started:spring']);
	});
});

describe.each(storeBackends())('a pause of an API campaign ($name)', (backend) => {
	it('is one write, in the ledger from its start; its event once', async () => {
		const { location, ledger, api } = await startedCampaigns(backend, ['running', 'early']);
		expect(await api.pause('running', 3000, pausedEvent('running', 3000))).toBe(true);
		expect(await api.pause('running', 3001, pausedEvent('running', 3001))).toBe(false);
		expect(await api.pause('early', 3000, pausedEvent('early', 3000))).toBe(true);
		expect(await queued(location)).toEqual([
			'campaign.paused:running:3000',
			'campaign.paused:early:3000',
		]);
		for (const name of ['running', 'early']) {
			expect((await api.campaign(name))?.state).toBe('started');
			expect((await ledger.campaign(name))?.paused).toBe(true);
		}
		// Neither is run while paused; each takes a new maxCost.
		expect(await api.campaignsToRun()).toEqual([]);
		for (const name of ['running', 'early'])
			expect(await api.changeSettings(name, { ...SETTINGS, maxCost: 5 }, 4000)).toBe(true);

		expect(await api.resume('running', 5000)).toBe(true);
		expect(await api.resume('early', 5000)).toBe(true);
		expect(await api.resume('early', 5001)).toBe(false);
		expect((await ledger.campaign('running'))?.paused).toBe(false);
		expect((await api.campaignsToRun()).map((c) => c.name)).toEqual(['early', 'running']);
	});
});

describe.each(storeBackends())('a cancel left to a run ($name)', (backend) => {
	it('of a paused API campaign is one the workers take up, to finish it', async () => {
		const { ledger, api } = await startedCampaigns(backend, ['asked', 'quiet']);
		for (const name of ['asked', 'quiet']) expect(await api.pause(name, 2000)).toBe(true);
		await ledger.setPhase('asked', 'cancelled', { reason: 'by the test', at: 3000 });
		expect((await api.campaignsToRun()).map((c) => c.name)).toEqual(['asked']);
		// Its settings no longer change: it is cancelled to its callers.
		expect(await api.changeSettings('asked', { ...SETTINGS, maxCost: 5 }, 4000)).toBe(false);
		expect(await api.changeSettings('quiet', { ...SETTINGS, maxCost: 5 }, 4000)).toBe(true);
	});
});
