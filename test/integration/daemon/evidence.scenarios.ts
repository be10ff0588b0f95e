import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../support/cleanup';
import { storeBackends } from '../../support/storeBackends';
import { runCampaign } from '../../support/runCampaign';
import { workerRig } from '../../support/workerRig';
import { cli, writeCsv } from '../worker/harness';
import { tempDir, until } from './harness';

const SECRET = 'evidence-secret-0123456789abcdef';
const ANN = '+61491570801';
const BEN = '+61491570802';
const CAL = '+61491570803';

const cleanup = cleanupAfterEach();

/** A CSV's lines as objects by its header (no quoted commas in what this test reads). */
function csvRecords(text: string): Record<string, string>[] {
	const [header, ...lines] = text.trim().split('\r\n');
	const names = header.split(',');
	return lines.map((l) => {
		const cells = l.split(',');
		return Object.fromEntries(names.map((n, i) => [n, cells[i] ?? '']));
	});
}

/**
 * The evidence of a campaign as a complaint would need it: a campaign sent through a
 * running worker, receipts and replies by the sandbox's callbacks, one recipient opting
 * out; the export shows, per recipient, the sends, receipts, replies, the opt-out and that
 * nothing went after it. On both backends: the export is read from the store.
 */
/** One backend per file (`.sqlite.test.ts`, `.postgres.test.ts`): files run side by side, each well within 60 s. */
export function scenarios(part: 'sqlite' | 'postgres'): void {
	describe.each(storeBackends().filter((b) => b.name === part))(
		'campaign evidence ($name)',
		(backend) => {
			it('one line per recipient: consent, text, hand-over, MessageSid, receipt, replies, opt-out and nothing sent after it', async () => {
				const { sandbox, driver, dir, db, worker, callbacks } = await workerRig(cleanup, {
					secret: SECRET,
					backend,
					sandbox: { receiptDelayMs: 20 },
				});
				const send = async (name: string) => {
					const list = writeCsv(
						tempDir(),
						`${name}.csv`,
						`Phone,Name\n${ANN},Ann\n${BEN},Ben\n${CAL},Cal\n`,
					);
					const run = await runCampaign(sandbox, {
						csv: list,
						db,
						name,
						text: `Hi {{Name}} from Bondi: ${name} deals`,
						callbacks,
						rate: '0',
					});
					expect(run.code, run.stderr).toBe(0);
				};
				await send('winter');
				const sent = (await driver.messages()).filter((m) =>
					String(m.ExternalId).startsWith('winter:'),
				);
				const to = (n: string) => sent.find((m) => m.To === n);
				for (const [n, text] of [
					[ANN, 'STOP'],
					[BEN, 'Thanks!'],
				]) {
					const sid = await driver.reply(n, to(n).From, text);
					await worker.waitFor((l) => l.msg === 'reply' && l.messageSid === sid, 15_000, 'reply');
				}
				// A later campaign to the same list: Ann is suppressed in it, not sent.
				await send('spring');
				const out = join(dir, 'winter-evidence.csv');
				await until(
					async () => {
						const r = await cli([
							'campaign',
							'evidence',
							'--name',
							'winter',
							'--db',
							db,
							'--out',
							out,
						]);
						expect(r.code, r.stderr).toBe(0);
						return csvRecords(readFileSync(out, 'utf8')).every((l) => l.receipt_status !== '')
							? r
							: undefined;
					},
					20_000,
					'every receipt in the evidence',
				);
				const lines = csvRecords(readFileSync(out, 'utf8'));
				expect(lines.map((l) => l.number)).toEqual([ANN, BEN, CAL]);
				for (const l of lines) {
					expect(l).toMatchObject({
						status: 'accepted',
						message_sid: to(l.number).MessageSid,
						receipt_status: 'Delivered',
						sent_after_opt_out: 'no',
					});
					expect(l.text).toMatch(/^Hi (Ann|Ben|Cal) from Bondi: winter deals$/);
					expect(Date.parse(l.handed_over_at)).toBeGreaterThan(0);
				}
				const ann = lines[0];
				expect(ann.opt_out_word).toBe('STOP');
				expect(Date.parse(ann.opt_out_at)).toBeGreaterThanOrEqual(Date.parse(ann.handed_over_at));
				expect(Date.parse(ann.suppressed_at)).toBeGreaterThanOrEqual(Date.parse(ann.opt_out_at));
				expect(ann.replies).toBe(ann.opt_out_at);
				expect(lines[1]).toMatchObject({ opt_out_word: '', opt_out_at: '' });
				expect(lines[1].replies).not.toBe('');
				expect(lines[2]).toMatchObject({ replies: '', opt_out_at: '' });

				// The report counts the campaign's opt-outs by word, with the time to their suppression.
				const report = await cli(['campaign', 'report', '--name', 'winter', '--db', db, '--json']);
				const { optOuts } = JSON.parse(report.stdout);
				expect(optOuts).toMatchObject({ count: 1, words: [{ word: 'STOP', count: 1 }] });
				expect(optOuts.secondsToSuppression.max).toBeLessThan(60);
				expect((await cli(['campaign', 'report', '--name', 'winter', '--db', db])).stdout).toMatch(
					/ opt-outs: STOP 1; suppressed within [\d.]+ s of the reply/,
				);

				const json = await cli([
					'campaign',
					'evidence',
					'--name',
					'spring',
					'--db',
					db,
					'--out',
					join(dir, 'spring.json'),
					'--json',
				]);
				expect(json.stdout).toContain('no message was handed over after its number opted out');
				const spring = JSON.parse(readFileSync(join(dir, 'spring.json'), 'utf8'));
				expect(spring.rows.map((r: any) => [r.number, r.status, r.sentAfterOptOut])).toEqual([
					[ANN, 'suppressed', false],
					[BEN, 'accepted', false],
					[CAL, 'accepted', false],
				]);

				const exported = await cli(['contact', 'export', ANN, '--db', db]);
				expect(exported.code, exported.stderr).toBe(0);
				const person = JSON.parse(exported.stdout);
				expect(person).toMatchObject({ number: ANN, suppressed: { reason: 'replied STOP' } });
				expect(person.events.map((e: any) => e.kind)).toEqual(
					expect.arrayContaining(['message', 'receipt', 'reply', 'opt-out']),
				);
				expect(person.events.find((e: any) => e.kind === 'reply').text).toBe('STOP');
			}, 60_000);
		},
	);
}
