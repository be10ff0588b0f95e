import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../../sandbox/src';
import { CallbackCatcher, type CaughtRequest } from '../../support/callbackCatcher';
import { cleanupAfterEach } from '../../support/cleanup';
import { storeBackends } from '../../support/storeBackends';
import { cli, writeCsv } from '../worker/harness';
import {
	freePort,
	SandboxDriver,
	SmtpSink,
	tempDir,
	until,
	WorkerProcess,
	writeConfig,
} from './harness';

/** One backend per file (`.sqlite.test.ts`, `.postgres.test.ts`): files run side by side, each well within 60 s. */
export function scenarios(part: 'sqlite' | 'postgres'): void {
	const SECRET = 'duplicate-secret-0123456789';
	const FORWARD_SMS_TO = '+61491570999';
	const CUSTOMERS = ['+61491570301', '+61491570302', '+61491570303'];

	const cleanup = cleanupAfterEach();

	describe.each(storeBackends().filter((b) => b.name === part))(
		'a reply that comes twice ($name)',
		(backend) => {
			it('posted twice at once, and again after a restart: one e-mail at the SMTP server, one POST, one SMS forward', async () => {
				const sandbox = await startSandbox({ port: 0, receiptDelayMs: 600_000 });
				cleanup.push(() => sandbox.close());
				const driver = new SandboxDriver(sandbox);
				const smtp = new SmtpSink(await freePort());
				await smtp.start();
				cleanup.push(() => smtp.stop());
				const catcher = await CallbackCatcher.start();
				cleanup.push(() => catcher.close());
				const dir = tempDir();
				const location = backend.location();
				const db = location.kind === 'sqlite' ? location.path : location.url;
				const port = await freePort();
				const env = {
					CLOUDTEL_BASE_URL: sandbox.url,
					CLOUDTEL_ACCOUNT_SID: sandbox.demo.AccountSid,
					CLOUDTEL_AUTH_TOKEN: sandbox.demo.AuthToken,
					CLOUDTEL_CALLBACK_SECRET: SECRET,
					CLOUDTEL_SMTP_PASSWORD: smtp.password,
				};
				const config = writeConfig(dir, {
					db,
					server: { publicUrl: `http://127.0.0.1:${port}`, port, host: '127.0.0.1' },
					smtp: {
						host: '127.0.0.1',
						port: smtp.port,
						allowInsecure: true,
						from: 'worker@example.com',
						user: smtp.user,
					},
					// One forward at a time, in the order queued: once a later reply's forwards are
					// done, every forward queued before them has been sent too.
					outbox: { concurrency: 1, backoffMs: 50, maxBackoffMs: 500 },
					replies: [
						{
							name: 'everything',
							actions: [
								{ type: 'forwardEmail', to: 'team@example.com' },
								{ type: 'post', url: `${catcher.url}/forward` },
								{ type: 'forwardSms', to: FORWARD_SMS_TO },
							],
						},
					],
				});
				let worker = await WorkerProcess.start(config, env);
				cleanup.push(() => worker.stop('SIGKILL'));

				// A campaign of this ledger texts the customers from leased numbers; their replies are
				// caught first, so that the very callback the provider sent can be posted again.
				const list = writeCsv(
					dir,
					'list.csv',
					`Phone,Name\n${CUSTOMERS.map((c, i) => `${c},N${i}`).join('\n')}\n`,
				);
				const run = await cli(
					[
						'campaign',
						'run',
						'--csv',
						list,
						'--text',
						'Hi {{Name}}, any questions?',
						'--property',
						sandbox.demo.PropertySid,
						'--db',
						db,
						'--name',
						'promo',
						'--reply-url',
						`${catcher.url}/replies`,
						'--rate',
						'0',
					],
					env,
				);
				expect(run.code, run.stderr).toBe(0);
				const sent = await driver.messages();
				const callbackOf = async (
					customer: string,
					text: string,
				): Promise<{ MessageSid: string }> => {
					const leased = sent.find(
						(m) => m.To === customer && String(m.ExternalId).startsWith('promo:'),
					).From;
					const sid = await driver.reply(customer, leased, text);
					const caught = await until(
						() =>
							catcher.requests.find(
								(r: CaughtRequest) => r.path === '/replies' && r.body?.MessageSid === sid,
							),
						20_000,
						`the reply callback of ${sid}`,
					);
					expect(caught.body).toMatchObject({
						MessageSid: sid,
						AccountSid: sandbox.demo.AccountSid,
						OriginalMessageSid: expect.any(String),
						From: customer,
						Text: text,
					});
					return caught.body as { MessageSid: string };
				};
				const post = async (callback: unknown) => {
					const res = await fetch(`http://127.0.0.1:${port}/callbacks/${SECRET}/replies`, {
						method: 'POST',
						headers: { 'content-type': 'application/json' },
						body: JSON.stringify(callback),
					});
					await res.arrayBuffer();
					return res.status;
				};
				/** Every forward of a reply has been made: its e-mail, its POST and its SMS. */
				const forwardsOf = async (sid: string, text: string) => ({
					emails: smtp.about(sid).length,
					posts: catcher.requests.filter(
						(r) => r.path === '/forward' && JSON.stringify(r.body).includes(sid),
					).length,
					sms: (await driver.messages()).filter(
						(m) => m.To === FORWARD_SMS_TO && String(m.Text).includes(text),
					).length,
				});
				const allForwarded = (sid: string, text: string) =>
					until(
						async () => {
							const f = await forwardsOf(sid, text);
							return f.emails > 0 && f.posts > 0 && f.sms > 0;
						},
						30_000,
						`the forwards of ${sid}`,
					);

				const question = await callbackOf(CUSTOMERS[0], 'Is the sale on Sunday too?');
				// The provider's retry racing its first attempt: both answered 200, so neither is retried again.
				expect(await Promise.all([post(question), post(question)])).toEqual([200, 200]);
				await allForwarded(question.MessageSid, 'Is the sale on Sunday too?');
				// A later reply, forwarded after anything queued before it.
				const later = await callbackOf(CUSTOMERS[1], 'Can I bring a friend?');
				expect(await post(later)).toBe(200);
				await allForwarded(later.MessageSid, 'Can I bring a friend?');
				expect(await forwardsOf(question.MessageSid, 'Is the sale on Sunday too?')).toEqual({
					emails: 1,
					posts: 1,
					sms: 1,
				});

				// The same callback once more, to a worker started again.
				expect(await worker.stop('SIGTERM')).toBe(0);
				worker = await WorkerProcess.start(config, env);
				expect(await post(question)).toBe(200);
				const last = await callbackOf(CUSTOMERS[2], 'See you there');
				expect(await post(last)).toBe(200);
				await allForwarded(last.MessageSid, 'See you there');
				expect(await forwardsOf(question.MessageSid, 'Is the sale on Sunday too?')).toEqual({
					emails: 1,
					posts: 1,
					sms: 1,
				});
				expect(await forwardsOf(later.MessageSid, 'Can I bring a friend?')).toEqual({
					emails: 1,
					posts: 1,
					sms: 1,
				});
				expect(smtp.mails).toHaveLength(3);
			});
		},
	);
}
