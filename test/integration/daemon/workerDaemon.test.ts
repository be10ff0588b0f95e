import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../../sandbox/src';
import { maskPhoneNumbers } from '../../../worker/src/daemon/phoneMask';
import { SqliteLedger } from '../../../worker/src/storage/sqlite/sqliteLedger';
import { CallbackCatcher } from '../../support/callbackCatcher';
import {
	ensureBuilt,
	freePort,
	SandboxDriver,
	SmtpSink,
	tempDir,
	until,
	WorkerProcess,
	writeConfig,
} from './harness';

const SECRET = 'callback-secret-0123456789';
const RECIPIENTS = ['+61491570101', '+61491570102', '+61491570103', '+61491570666'];
const FORWARD_SMS_TO = '+61491570900';

let sandbox: RunningSandbox;
let driver: SandboxDriver;
let smtp: SmtpSink;
let catcher: CallbackCatcher;
let worker: WorkerProcess;
let dir: string;
let port: number;
let base: string;
let env: Record<string, string>;

/** The leased number the latest message to this recipient came from. */
async function leasedNumberFor(to: string): Promise<string> {
	const sent = (await driver.messages()).filter((m) => m.To === to && m.Direction === 'Outbound');
	return sent[sent.length - 1].From;
}

function summaries() {
	return worker.logs.filter((l) => l.msg === 'campaign summary');
}

beforeAll(async () => {
	await ensureBuilt();
	sandbox = await startSandbox({ port: 0, receiptDelayMs: 100 });
	driver = new SandboxDriver(sandbox);
	smtp = new SmtpSink(await freePort());
	await smtp.start();
	catcher = await CallbackCatcher.start();
	dir = tempDir();
	port = await freePort();
	base = `http://127.0.0.1:${port}`;
	writeFileSync(
		join(dir, 'list.csv'),
		`Phone,Name\n${RECIPIENTS.map((r, i) => `${r},N${i}`).join('\n')}\n`,
	);
	// Credentials and secrets come from the environment, as an operator would keep them.
	env = {
		CLOUDTEL_ACCOUNT_SID: sandbox.demo.AccountSid,
		CLOUDTEL_AUTH_TOKEN: sandbox.demo.AuthToken,
		CLOUDTEL_CALLBACK_SECRET: SECRET,
		CLOUDTEL_SMTP_PASSWORD: smtp.password,
	};
	const config = writeConfig(dir, {
		provider: { baseUrl: sandbox.url },
		db: 'worker.db',
		server: { publicUrl: base, port, host: '127.0.0.1', maxBodyBytes: 4096 },
		smtp: {
			host: '127.0.0.1',
			port: smtp.port,
			allowInsecure: true,
			from: 'worker@example.com',
			user: smtp.user,
		},
		outbox: { maxAttempts: 50, backoffMs: 100, maxBackoffMs: 1000 },
		campaigns: [
			{
				name: 'promo',
				cron: '*/4 * * * * *',
				timeZone: 'UTC',
				csv: 'list.csv',
				toColumn: 'Phone',
				property: sandbox.demo.PropertySid,
				text: 'Hi {{Name}}, reply YES to book',
			},
		],
		replies: [
			{
				name: 'yes',
				match: { keyword: 'YES', campaign: 'promo' },
				actions: [
					{ type: 'forwardEmail', to: 'bookings@example.com' },
					{ type: 'post', url: `${catcher.url}/yes`, headers: { 'x-team': 'sales' } },
				],
			},
			{
				name: 'call',
				match: { keyword: 'CALL' },
				actions: [{ type: 'forwardSms', to: FORWARD_SMS_TO }],
			},
			{ name: 'rest', actions: [{ type: 'forwardEmail', to: 'inbox@example.com' }] },
		],
	});
	worker = await WorkerProcess.start(config, env);
}, 120_000);

afterAll(async () => {
	if (process.env.DEBUG_DAEMON) console.log(worker?.text, worker?.stderr);
	await worker?.stop('SIGKILL');
	await Promise.allSettled([sandbox?.close(), smtp?.stop(), catcher?.close()]);
});

describe('cloudtel worker, end to end', () => {
	it("runs the campaign on its cron; its messages carry this worker's receipt and reply URLs; receipts reach the ledger", async () => {
		const first = await worker.waitFor(
			(l) => l.msg === 'campaign summary',
			20_000,
			'the first campaign run',
		);
		expect(first).toMatchObject({ campaign: 'promo', stop: 'finished', total: 4 });
		const run = first.run as string;
		expect(run).toMatch(/^promo-\d{8}T\d{6}Z$/);

		const messages = (await driver.messages()).filter((m) =>
			String(m.ExternalId).startsWith(`${run}:`),
		);
		expect(messages.map((m) => m.To).sort()).toEqual([...RECIPIENTS].sort());
		for (const m of messages) {
			expect(m.DeliveryReceiptWebhookUri).toBe(`${base}/callbacks/${SECRET}/receipts`);
			expect(m.WebhookUri).toBe(`${base}/callbacks/${SECRET}/replies`);
			expect(m.From).toMatch(/^\+\d+$/);
		}

		const ledger = new SqliteLedger(join(dir, 'worker.db'));
		try {
			const rows: { line: number; to?: string }[] = [];
			for await (const r of ledger.rows(run)) rows.push({ line: r.line, to: r.to });
			const deliveries = await until(
				async () => {
					const all = await Promise.all(rows.map((r) => ledger.delivery(run, r.line)));
					return all.every(Boolean) ? all : undefined;
				},
				10_000,
				'a delivery receipt for every row',
			);
			const byNumber = Object.fromEntries(rows.map((r, i) => [r.to, deliveries[i]!]));
			expect(byNumber['+61491570101']).toMatchObject({ status: 'Delivered' });
			expect(byNumber['+61491570666']).toMatchObject({
				status: 'Failed',
				errorCode: 'UNDELIVERABLE',
			});
		} finally {
			await ledger.close();
		}
	});

	it('reroutes replies by the rules: e-mail with the text, sender, campaign and time; SMS through the API; a POST', async () => {
		const yes = await driver.reply(
			RECIPIENTS[0],
			await leasedNumberFor(RECIPIENTS[0]),
			'Yes please, Tuesday',
		);
		const call = await driver.reply(
			RECIPIENTS[1],
			await leasedNumberFor(RECIPIENTS[1]),
			'call me back',
		);
		const other = await driver.reply(
			RECIPIENTS[2],
			await leasedNumberFor(RECIPIENTS[2]),
			'Who is this?',
		);

		const [booking] = await until(
			() => (smtp.about(yes).length > 0 ? smtp.about(yes) : undefined),
			10_000,
			'the YES e-mail',
		);
		expect(booking.to).toEqual(['bookings@example.com']);
		expect(booking.from).toBe('worker@example.com');
		expect(booking.text).toContain('Yes please, Tuesday');
		// The row's Name column names the person (replyEmailName.test.ts has the rules).
		expect(booking.text).toContain(`From: N0 (${RECIPIENTS[0]})`);
		expect(booking.text).toMatch(/Campaign: promo \(row \d+\)/);
		expect(booking.text).toMatch(/Time: \d{4}-\d\d-\d\dT/);
		expect(booking.text).toMatch(/Subject: SMS reply from N0 \(\+61491570101\) to promo/);

		const posted = await until(
			() => catcher.requests.find((r) => r.body?.MessageSid === yes),
			10_000,
			'the POST',
		);
		expect(posted.path).toBe('/yes');
		expect(posted.headers['x-team']).toBe('sales');
		expect(posted.headers['idempotency-key']).toBe(`${yes}.0.1`);
		expect(posted.body).toMatchObject({
			Event: 'reply',
			From: RECIPIENTS[0],
			Text: 'Yes please, Tuesday',
			Campaign: 'promo',
		});

		const forwarded = await until(
			async () => (await driver.messages()).find((m) => m.To === FORWARD_SMS_TO),
			10_000,
			'the SMS forward',
		);
		expect(forwarded.Text).toMatch(/^\+61491570102 replied \(promo, row \d+\): call me back$/);
		expect(forwarded.ExternalId).toBe(`forward:${call}.1.0`);

		const [inbox] = await until(
			() => (smtp.about(other).length > 0 ? smtp.about(other) : undefined),
			10_000,
			'the catch-all e-mail',
		);
		expect(inbox.to).toEqual(['inbox@example.com']);
		// The first matching rule decides: the YES reply went to bookings only.
		expect(smtp.about(yes)).toHaveLength(1);
	});

	it('"Stop." puts the sender on the suppression list and the next run skips them; "Unstop!" takes them off', async () => {
		const stopped = RECIPIENTS[3];
		await driver.reply(stopped, await leasedNumberFor(stopped), 'Stop.');
		// Numbers are masked in the log (log.phoneNumbers: masked, the default).
		const optedOut = await worker.waitFor(
			(l) => l.msg === 'opted out' && l.from === maskPhoneNumbers(stopped),
			10_000,
			'the opt-out',
		);
		const ledger = new SqliteLedger(join(dir, 'worker.db'));
		try {
			expect(await ledger.isSuppressed(stopped)).toBe(true);
			// A run begun before the STOP may have sent to them before it came, and end after it: the
			// run that proves the skip is one begun after the opt-out.
			const later = await until(
				() => {
					const begun = worker.logs.find(
						(l) => l.msg === 'campaign start' && l.time > optedOut.time,
					);
					return begun && summaries().find((s) => s.run === begun.run && s.stop === 'finished');
				},
				15_000,
				'a run begun after the STOP',
			);
			const run = later.run as string;
			const sent = (await driver.messages())
				.filter((m) => String(m.ExternalId).startsWith(`${run}:`))
				.map((m) => m.To);
			expect(sent.sort()).toEqual(RECIPIENTS.slice(0, 3).sort());
			const statuses: Record<string, string> = {};
			for await (const r of ledger.rows(run)) statuses[r.to!] = r.status;
			expect(statuses[stopped]).toBe('suppressed');

			await driver.reply(stopped, await leasedNumberFor(stopped), 'Unstop!');
			await worker.waitFor(
				(l) => l.msg === 'opted in' && l.from === maskPhoneNumbers(stopped),
				10_000,
				'the opt-in',
			);
			expect(await ledger.isSuppressed(stopped)).toBe(false);
		} finally {
			await ledger.close();
		}
	});

	it('refuses or ignores bad callbacks cleanly, and stores a callback once', async () => {
		const receipts = `${base}/callbacks/${SECRET}/receipts`;
		const replies = `${base}/callbacks/${SECRET}/replies`;
		const post = (url: string, body: string, type = 'application/json') =>
			fetch(url, { method: 'POST', headers: { 'content-type': type }, body });
		const receipt = {
			MessageSid: '00000000-0000-4000-8000-00000000abcd',
			AccountSid: sandbox.demo.AccountSid,
			PropertySid: sandbox.demo.PropertySid,
			From: '+61400000000',
			To: '+61491570101',
			Status: 'Delivered',
			ErrorCode: '',
			ExternalId: 'elsewhere:1',
			Timestamp: 1_900_000_000,
		};

		expect((await post(`${base}/callbacks/receipts`, JSON.stringify(receipt))).status).toBe(401);
		expect(
			(await post(`${base}/callbacks/not-the-secret-at-all/receipts`, JSON.stringify(receipt)))
				.status,
		).toBe(401);
		expect(
			(
				await fetch(
					`${base}/callbacks/${SECRET}/receipts?${new URLSearchParams({ ...receipt, Timestamp: '1' })}`.replace(
						SECRET,
						'x',
					),
				)
			).status,
		).toBe(401);
		expect((await post(receipts, '{"MessageSid": ')).status).toBe(400);
		expect((await post(receipts, '[1,2,3]')).status).toBe(400);
		expect((await post(receipts, JSON.stringify({ ...receipt, MessageSid: '' }))).status).toBe(400);
		expect((await post(receipts, JSON.stringify({ ...receipt, Status: 'Maybe' }))).status).toBe(
			400,
		);
		expect((await post(receipts, JSON.stringify({ ...receipt, Text: 'a reply' }))).status).toBe(
			400,
		);
		expect((await fetch(receipts, { method: 'PUT', body: '{}' })).status).toBe(405);
		const huge = await post(replies, JSON.stringify({ ...receipt, Text: 'x'.repeat(1_000_000) }));
		expect(huge.status).toBe(413);

		const fresh = await post(
			receipts,
			JSON.stringify({ ...receipt, SomethingNew: { nested: true } }),
		);
		expect(fresh.status).toBe(200);
		expect(await fresh.json()).toEqual({ ok: true });
		const again = await fetch(
			`${receipts}?${new URLSearchParams({ ...receipt, Timestamp: String(receipt.Timestamp) })}`,
		);
		expect(again.status).toBe(200);
		expect(await again.json()).toEqual({ ok: true, duplicate: true });
		const form = await post(
			receipts,
			new URLSearchParams({
				...receipt,
				MessageSid: '00000000-0000-4000-8000-00000000abce',
				Timestamp: '1',
			}).toString(),
			'application/x-www-form-urlencoded',
		);
		expect(form.status).toBe(200);
		await worker.waitFor(
			(l) =>
				l.msg === 'delivery receipt for no campaign row' && l.messageSid === receipt.MessageSid,
			20_000,
			'the processed receipt',
		);
		// The duplicate's line is logged just after its answer, so it may follow the first one's
		// processed line; the form receipt, posted after that answer, is processed after it, and
		// lines come in order (a turn late, through the supervisor's pipe): count once it is in.
		await worker.waitFor(
			(l) =>
				l.msg === 'delivery receipt for no campaign row' &&
				l.messageSid === '00000000-0000-4000-8000-00000000abce',
			20_000,
			'the form receipt processed',
		);
		expect(
			worker.count(
				(l) => l.msg === 'duplicate callback ignored' && l.messageSid === receipt.MessageSid,
			),
		).toBe(1);

		const health = await fetch(`${base}/health`);
		expect(health.status).toBe(200);
		expect(await health.json()).toMatchObject({ ok: true, status: 'running' });
		expect((await fetch(`${base}/nothing-here`)).status).toBe(404);
	});

	it('logs JSON lines only, and never a secret', () => {
		const text = worker.text;
		expect(worker.logs.length).toBeGreaterThan(10);
		expect(worker.stdout).toBe('');
		for (const secret of [
			SECRET,
			sandbox.demo.AuthToken,
			smtp.password,
			Buffer.from(`${sandbox.demo.AccountSid}:${sandbox.demo.AuthToken}`).toString('base64'),
		]) {
			expect(text).not.toContain(secret);
			expect(worker.stderr).not.toContain(secret);
		}
		expect(
			worker.logs.some(
				(l) => l.msg === 'request refused' && l.reason === 'wrong or missing callback secret',
			),
		).toBe(true);
	});

	it('stops gracefully on SIGTERM and exits 0', async () => {
		const code = await worker.stop('SIGTERM');
		expect(code).toBe(0);
		const messages = worker.logs.map((l) => l.msg);
		expect(messages).toContain('worker stopping');
		expect(messages[messages.length - 1]).toBe('worker stopped');
	});
});
