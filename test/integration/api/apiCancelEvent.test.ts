import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { DbLocation } from '../../../worker/src/storage/dbLocation';
import { key } from '../../support/callbackCatcher';
import { cleanupAfterEach } from '../../support/cleanup';
import { sql } from '../../support/postgres/database';
import { storeBackends } from '../../support/storeBackends';
import { until } from '../daemon/harness';
import { recipients, startCatcher } from './apiHarness';
import { apiWorkerRig } from './apiRig';
import { startApiCampaign } from './startApiCampaign';

const cleanup = cleanupAfterEach();

/** Makes the database refuse to store any campaign.finished, as a crash at that write would leave it. */
async function refuseFinishedEvents(location: DbLocation, refuse: boolean): Promise<void> {
	if (location.kind === 'sqlite') {
		const db = new Database(location.path);
		try {
			db.exec(
				refuse
					? `CREATE TRIGGER refuse_finished BEFORE INSERT ON forwards WHEN NEW.event_key LIKE 'campaign.finished:%' BEGIN SELECT RAISE(ABORT, 'the disk is gone'); END`
					: 'DROP TRIGGER refuse_finished',
			);
		} finally {
			db.close();
		}
		return;
	}
	if (refuse) {
		await sql(
			location.url,
			`CREATE FUNCTION refuse_finished() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW.event_key LIKE 'campaign.finished:%' THEN RAISE EXCEPTION 'the disk is gone'; END IF; RETURN NEW; END $$`,
		);
		await sql(
			location.url,
			'CREATE TRIGGER refuse_finished BEFORE INSERT ON forwards FOR EACH ROW EXECUTE FUNCTION refuse_finished()',
		);
	} else {
		await sql(location.url, 'DROP TRIGGER refuse_finished ON forwards');
		await sql(location.url, 'DROP FUNCTION refuse_finished()');
	}
}

/**
 * The cancel of an API campaign no run holds (paused, its worker restarted) queues its
 * campaign.finished in the write that moves it to cancelled: a cancel whose event cannot
 * be stored does not move it, and the cancel made again announces the end, once.
 */
describe.each(storeBackends())('cancel of an API campaign not running ($name)', (backend) => {
	it('moves it and queues its campaign.finished together, or neither', async () => {
		const { sandbox, driver, location, start, call, idle } = await apiWorkerRig(backend, cleanup, {
			sandbox: { receiptDelayMs: 60_000 },
		});
		const receiver = await startCatcher(cleanup);
		const sent = async () =>
			(await driver.messages()).filter((m) => String(m.ExternalId).startsWith('halted:'));

		let worker = await start();
		await startApiCampaign(
			call,
			'halted',
			{
				property: sandbox.demo.PropertySid,
				text: 'Hi {{first_name}}',
				rate: 2,
				batchSize: 1,
				events: `${receiver.url}/hook`,
			},
			recipients(0, 30, '+614915730'),
		);
		await until(
			async () => (await call('GET', '/campaigns/halted')).body.campaign.counts.accepted >= 2,
			30_000,
			'some sent',
		);
		expect((await call('POST', '/campaigns/halted/pause')).body.campaign.state).toBe('paused');
		// Restarted, the worker runs no paused campaign: the cancel is made by the API alone.
		expect(await worker.stop('SIGTERM')).toBe(0);
		await refuseFinishedEvents(location, true);
		worker = await start();

		const refused = await call('POST', '/campaigns/halted/cancel');
		expect(refused.status).toBeGreaterThanOrEqual(500);
		// The event could not be stored: the campaign has not moved either.
		expect((await call('GET', '/campaigns/halted')).body.campaign.state).toBe('paused');

		await refuseFinishedEvents(location, false);
		const cancelled = await call('POST', '/campaigns/halted/cancel');
		expect(cancelled.status).toBe(200);
		expect(cancelled.body.campaign.state).toBe('cancelled');
		const finished = await until(
			() => receiver.requests.find((r) => key(r) === 'campaign.finished:halted'),
			20_000,
			'the finished event',
		);
		const status = (await call('GET', '/campaigns/halted')).body.campaign;
		expect(finished.body).toMatchObject({
			type: 'campaign.finished',
			campaign: 'halted',
			data: { state: 'cancelled', reason: 'cancelled through the API' },
		});
		expect(finished.body.data.counts).toEqual(status.counts);
		expect(status.counts.cancelled).toBeGreaterThan(0);
		expect(status.counts.accepted + status.counts.cancelled).toBe(30);
		expect((await sent()).length).toBe(status.counts.accepted);
		// Nothing left to send: a repeat would have come by now.
		await until(() => idle(), 20_000, 'the worker to have nothing left to send');
		expect(receiver.requests.filter((r) => key(r) === 'campaign.finished:halted')).toHaveLength(1);
	}, 120_000);
});
