import { describe, expect, it } from 'vitest';
import { openLedger } from '../../../worker/src/storage/openStores';
import { cleanupAfterEach } from '../../support/cleanup';
import { storeBackends } from '../../support/storeBackends';
import { workerRig } from '../../support/workerRig';
import { until } from './harness';

const SECRET = 'confirmation-secret-0123456789';
const CONFIRMATION = 'Bondi Deals: you are unsubscribed and will get no more messages.';

const cleanup = cleanupAfterEach();

/**
 * optOut.confirmation, through the sandbox's reply callbacks: one text to a number that
 * opts out, from the number its opt-out answered; none for a STOP repeated within 30 days,
 * none to a number that only replied. On both backends: the last confirmation is the store's.
 */
describe.each(storeBackends())('the opt-out confirmation ($name)', (backend) => {
	it('goes once, from the sender the opt-out answered, and is recorded with the opt-out', async () => {
		const rig = await workerRig(cleanup, {
			secret: SECRET,
			backend,
			sandbox: { receiptDelayMs: 600_000 },
			config: () => ({
				outbox: { concurrency: 1, backoffMs: 50, maxBackoffMs: 200 },
				optOut: { confirmation: CONFIRMATION },
			}),
		});
		const { driver, location, worker } = rig;
		const callbacks = `${rig.callbacks}/replies`;
		const senders = new Map<string, string>();
		const replies = async (to: string, text: string) => {
			if (!senders.has(to))
				senders.set(
					to,
					(await driver.send({ To: to, Text: 'Winter sale at Bondi', WebhookUri: callbacks })).From,
				);
			const sid = await driver.reply(to, senders.get(to)!, text);
			await worker.waitFor(
				(l) => l.msg === 'reply' && l.messageSid === sid,
				15_000,
				`reply ${sid}`,
			);
		};
		const confirmationsTo = async (to: string) =>
			(await driver.messages()).filter((m) => m.To === to && m.Text === CONFIRMATION);

		await replies('+61491570701', 'STOP');
		await replies('+61491570702', 'Thanks, see you there');
		await replies('+61491570701', 'stop!!');
		await replies('+61491570703', 'Please remove me from this list');
		// The last opt-out's confirmation is the mark: the outbox sends in the order queued.
		await until(
			async () => (await confirmationsTo('+61491570703')).length > 0 || undefined,
			15_000,
			'the confirmation of the last opt-out',
		);
		const first = await confirmationsTo('+61491570701');
		expect(first).toHaveLength(1);
		expect(first[0].From).toBe(senders.get('+61491570701'));
		expect(await confirmationsTo('+61491570702')).toEqual([]);
		expect((await confirmationsTo('+61491570703'))[0].From).toBe(senders.get('+61491570703'));

		const ledger = await openLedger(location);
		try {
			const history = await ledger.contactHistory('+61491570701');
			expect(history.events.map((e) => [e.kind, e.detail])).toEqual([
				['opt-out', 'replied STOP'],
				['confirmation', `sent from ${senders.get('+61491570701')}: ${CONFIRMATION}`],
				['opt-out', 'replied STOP'],
			]);
		} finally {
			await ledger.close();
		}
	}, 60_000);
});
