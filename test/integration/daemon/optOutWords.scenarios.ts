import { describe, expect, it } from 'vitest';
import { openLedger } from '../../../worker/src/storage/openStores';
import { CallbackCatcher } from '../../support/callbackCatcher';
import { cleanupAfterEach } from '../../support/cleanup';
import { storeBackends, type StoreBackend } from '../../support/storeBackends';
import { workerRig } from '../../support/workerRig';
import { cli } from '../worker/harness';
import { until } from './harness';

const SECRET = 'opt-out-words-secret-0123456789';

const cleanup = cleanupAfterEach();

/**
 * Today's opt-out rules, through the sandbox's real reply callbacks: REVOKE and the other
 * languages' words, a reply that asks to stop in words of its own (opted out, or held for
 * a person), each recorded with the word or phrase that matched. On both backends: the
 * opt-out and its record are the store's.
 */
async function setUp(backend: StoreBackend, optOut: Record<string, unknown>, more = {}) {
	const rig = await workerRig(cleanup, {
		secret: SECRET,
		backend,
		sandbox: { receiptDelayMs: 600_000 },
		config: () => ({
			outbox: { concurrency: 1, backoffMs: 50, maxBackoffMs: 200 },
			optOut,
			...more,
		}),
	});
	const { driver, db, location, worker } = rig;
	const callbacks = `${rig.callbacks}/replies`;
	/** A message to `to`, and `to`'s reply to it, once the worker has processed it. */
	const replies = async (to: string, text: string) => {
		const sent = await driver.send({ To: to, Text: 'Winter sale at Bondi', WebhookUri: callbacks });
		const sid = await driver.reply(to, sent.From, text);
		await worker.waitFor((l) => l.msg === 'reply' && l.messageSid === sid, 15_000, `reply ${sid}`);
		return sid;
	};
	return { db, location, worker, replies };
}

/** One backend per file (`.sqlite.test.ts`, `.postgres.test.ts`): files run side by side, each well within 60 s. */
export function scenarios(part: 'sqlite' | 'postgres'): void {
	describe.each(storeBackends().filter((b) => b.name === part))(
		'opt-out words ($name)',
		(backend) => {
			it('REVOKE, "Arrêt", BASTA and "please remove me from this list" opt out, each recorded with what matched; "don\'t stop the deals" and "don\'t remove me" stay replies', async () => {
				const { location, replies } = await setUp(backend, {});
				const said: [string, string, string | undefined][] = [
					['+61491570601', 'REVOKE', 'replied REVOKE'],
					['+61491570602', 'Arrêt', 'replied ARRET'],
					['+61491570603', 'basta!', 'replied BASTA'],
					['+61491570604', 'Please remove me from this list', 'replied "remove me"'],
					['+61491570605', 'I don’t text much, wrong number sorry', 'replied "wrong number"'],
					['+61491570606', "Don't stop the deals!", undefined],
					['+61491570607', "Please don't remove me", undefined],
				];
				for (const [number, text] of said) await replies(number, text);
				const ledger = await openLedger(location);
				try {
					for (const [number, text, reason] of said) {
						const history = await ledger.contactHistory(number);
						expect(history.suppressed?.reason, `${number} "${text}"`).toBe(reason);
						expect(history.events.filter((e) => e.kind === 'opt-out').map((e) => e.detail)).toEqual(
							reason === undefined ? [] : [reason],
						);
					}
				} finally {
					await ledger.close();
				}
			});

			it.runIf(backend.name === 'sqlite')(
				'reasonableMeans: review holds "take me off your list" for a person: listed, sent to n8n as optout.review, accepted or rejected by cloudtel optouts review',
				async () => {
					const receiver = await CallbackCatcher.start();
					cleanup.push(() => receiver.close());
					const { db, replies } = await setUp(
						backend,
						{ reasonableMeans: 'review' },
						{ events: { url: `${receiver.url}/events`, types: ['optout', 'optout.review'] } },
					);
					const held = await replies('+61491570611', 'Can you take me off your list');
					const other = await replies('+61491570612', 'wrong number mate');
					await replies('+61491570613', 'STOP');
					const review = await cli(['optouts', 'review', '--db', db, '--json']);
					expect(review.code, review.stderr).toBe(0);
					expect(JSON.parse(review.stdout)).toEqual([
						{ number: '+61491570611', at: expect.any(Number), reason: 'replied "take me off"' },
						{ number: '+61491570612', at: expect.any(Number), reason: 'replied "wrong number"' },
					]);
					const events = () =>
						receiver.requests.filter((r) => r.path === '/events').map((r) => r.body as any);
					const event = await until(
						() => events().find((e) => e.id === `optout.review:${held}`),
						15_000,
						'the optout.review event',
					);
					// The events go out in order, one at a time: the STOP's, queued last, comes last.
					await until(() => events().find((e) => e.type === 'optout'), 15_000, 'the STOP');
					expect(event).toMatchObject({
						type: 'optout.review',
						data: {
							number: '+61491570611',
							phrase: 'take me off',
							text: 'Can you take me off your list',
							messageSid: held,
						},
					});
					// Held, not an opt-out: no optout event for it, though the STOP after it had one.
					expect(events().map((e) => e.id)).not.toContain(`optout:${held}`);
					expect(events().map((e) => e.id)).not.toContain(`optout:${other}`);

					const accept = await cli(['optouts', 'review', '--db', db, '--accept', '+61491570611']);
					expect(accept.code, accept.stderr).toBe(0);
					const reject = await cli(['optouts', 'review', '--db', db, '--reject', '+61491570612']);
					expect(reject.code, reject.stderr).toBe(0);
					const again = await cli(['optouts', 'review', '--db', db, '--accept', '+61491570612']);
					expect(again.code).not.toBe(0);
					expect(again.stderr).toContain('+61491570612 has no opt-out waiting for review');
					expect((await cli(['optouts', 'review', '--db', db])).stdout).toBe(
						'no opt-out waits for review\n',
					);
					const ledger = await openLedger({ kind: 'sqlite', path: db });
					try {
						expect((await ledger.contactHistory('+61491570611')).suppressed?.reason).toBe(
							'replied "take me off", accepted on review',
						);
						const kept = await ledger.contactHistory('+61491570612');
						expect(kept.suppressed).toBeUndefined();
						expect(kept.events.map((e) => e.kind)).toEqual(['review', 'review-rejected']);
					} finally {
						await ledger.close();
					}
				},
			);
		},
	);
}
