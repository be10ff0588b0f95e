import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallbackProcessor } from '../../../worker/src/daemon/callbacks/3-processor/callbackProcessor';
import type { ForwardOutbox } from '../../../worker/src/daemon/callbacks/6-forward/forwardOutbox';
import type { ForwardPayload } from '../../../worker/src/daemon/callbacks/6-forward/forwardPayload';
import { SmtpSender } from '../../../worker/src/daemon/callbacks/6-forward/smtpSender';
import { JsonLogger } from '../../../worker/src/daemon/jsonLogger';
import { campaignRows } from '../../../worker/src/daemon/api/recipientRows';
import { openApiCampaignStore } from '../../../worker/src/storage/openApiCampaignStore';
import type { ReplyRule } from '../../../worker/src/config/workerConfigSchema';
import type {
	CompletedEvent,
	EventStore,
	StoredEvent,
} from '../../../worker/src/storage/daemonStore';
import { SqliteLedger } from '../../../worker/src/storage/sqlite/sqliteLedger';
import { freePort } from '../../support/freePort.mjs';
import { tempDir } from '../../support/tempDir';

const RUN = 'weekly-offer-20261127T220900Z';
const ANN = '+61491570156';
const BOB = '+61491570157';

/** In-process: the processor on a real ledger and CSV, its e-mails through a real SMTP server. */
let ledger: SqliteLedger;
let dbPath: string;
let smtp: SMTPServer;
let port: number;
const mails: string[] = [];

beforeAll(async () => {
	const dir = tempDir('cloudtel-reply-name-');
	const csv = join(dir, 'list.csv');
	writeFileSync(csv, `Mobile,first_name,city\n${ANN},Ann,Perth\n${BOB},Bob,Hobart\n`);
	dbPath = join(dir, 'l.db');
	ledger = new SqliteLedger(dbPath);
	await ledger.createCampaign({
		name: RUN,
		csvPath: csv,
		propertySid: 'PR1',
		text: 'Hi {{first_name}}, 20% off this week',
	});
	await ledger.importBatch(
		RUN,
		[ANN, BOB].map((to, i) => ({
			line: i + 2,
			to,
			text: 'Hi',
			segments: 1,
			status: 'pending' as const,
		})),
		3,
	);
	await ledger.markSubmitting(RUN, [2, 3], 1);
	await ledger.settle(
		RUN,
		1,
		[2, 3].map((line) => ({ line, status: 'accepted' as const, messageSid: `SM${line}` })),
	);
	port = await freePort();
	smtp = new SMTPServer({
		authOptional: true,
		disabledCommands: ['STARTTLS'],
		logger: false,
		closeTimeout: 100,
		onData(stream, _session, callback) {
			const chunks: Buffer[] = [];
			stream.on('data', (c: Buffer) => chunks.push(c));
			stream.on('end', () => {
				mails.push(
					Buffer.concat(chunks)
						.toString('utf8')
						.replace(/=\r?\n/g, ''),
				);
				callback();
			});
		},
	});
	await new Promise<void>((r) => smtp.listen(port, '127.0.0.1', r));
});

afterAll(async () => {
	await ledger?.close();
	await new Promise<void>((r) => (smtp ? smtp.close(() => r()) : r()));
});

function reply(
	from: string,
	line: number,
	text: string,
	sid = `SMr${line}`,
	run = RUN,
): StoredEvent {
	return {
		key: `reply:${sid}`,
		receivedAt: Date.now(),
		event: {
			kind: 'reply',
			data: {
				AccountSid: 'AC1',
				MessageSid: sid,
				PropertySid: 'PR1',
				From: from,
				To: '+61480000001',
				ExternalId: `${run}:${line}`,
				OriginalMessageSid: `SM${line}`,
				Text: text,
				Timestamp: 0,
			},
		},
	};
}

/**
 * The forwards the callback processor makes of these events under one forwardEmail rule,
 * with an API campaign's rows looked up through `rows` when given.
 */
async function forwardsOf(
	pending: ReturnType<typeof reply>[],
	rows?: Parameters<CallbackProcessor['lookUpRows']>[0],
): Promise<ForwardPayload[]> {
	const forwards: ForwardPayload[] = [];
	const store = {
		unprocessedEvents: async () => pending.splice(0),
		completeEvents: async (done: CompletedEvent[]) => {
			for (const d of done) for (const f of d.forwards) forwards.push(f.payload as ForwardPayload);
		},
		processingAlone: (pass: () => Promise<unknown>) => pass(),
	} as unknown as EventStore;
	const rules = [
		{ name: 'mail', match: {}, actions: [{ type: 'forwardEmail', to: ['team@example.com'] }] },
	] as unknown as ReplyRule[];
	const processor = new CallbackProcessor(
		store,
		ledger,
		rules,
		{ kick: () => undefined } as unknown as ForwardOutbox,
		new JsonLogger(() => undefined),
	);
	if (rows) processor.lookUpRows(rows);
	processor.start();
	await processor.idle();
	return forwards;
}

describe('a reply forwarded by e-mail', () => {
	it("carries the row's name and says plainly when the reply opted the person out", async () => {
		const pending = [
			reply(ANN, 2, 'Thanks, see you Friday'),
			reply(BOB, 3, 'STOP'),
			// Another number answering line 3 (the list was replaced since): no name rather than Bob's.
			reply('+61491570158', 3, 'Who is this?', 'SMr3b'),
		];
		const forwards = await forwardsOf(pending);
		expect(forwards).toHaveLength(3);
		const sender = new SmtpSender(
			{ host: '127.0.0.1', port, allowInsecure: true, from: 'worker@example.com' } as never,
			1,
		);
		for (const [i, f] of forwards.entries())
			expect(await sender.send(f, { id: i, key: `k${i}`, actionKey: `${i}` })).toEqual({
				kind: 'sent',
			});
		sender.close();
		const ann = mails.find((m) => m.includes('Thanks, see you Friday'))!;
		const bob = mails.find((m) => m.includes('STOP'))!;
		expect(ann).toMatch(/^Subject: SMS reply from Ann \(\+61491570156\) to weekly-offer\r?$/m);
		expect(ann).toContain(`From: Ann (${ANN})`);
		expect(ann).not.toContain('Opted out');
		expect(bob).toMatch(
			/^Subject: SMS reply from Bob \(\+61491570157\) to weekly-offer: opted out\r?$/m,
		);
		expect(bob).toContain(`From: Bob (${BOB})`);
		expect(mails.find((m) => m.includes('Who is this?'))).toMatch(/^From: \+61491570158\r?$/m);
		expect(bob).toContain(
			`Opted out: this reply (STOP) put ${BOB} on the suppression list; no campaign texts them again unless they reply START`,
		);
	});

	it("carries the name of an API campaign's recipient, read from its pages (no file holds them)", async () => {
		const api = await openApiCampaignStore({ kind: 'sqlite', path: dbPath }, ledger);
		const body = JSON.stringify([
			{ phone: ANN, first_name: 'Annie' },
			{ phone: BOB, first_name: 'Bobby' },
		]);
		await api.create('spring', { property: 'PR1', text: 'Hi {{first_name}}' }, 1);
		await api.putPage(
			'spring',
			{ page: 1, hash: 'h', recipients: 2, columns: ['phone', 'first_name'], body },
			1,
		);
		const spec = {
			name: 'spring',
			csvPath: "the recipients' CSV",
			propertySid: 'PR1',
			text: 'Hi {{first_name}}',
		};
		expect(await api.start('spring', spec, 2)).toBe(true);
		await ledger.importBatch(
			'spring',
			[{ line: 3, to: BOB, text: 'Hi', segments: 1, status: 'pending' as const }],
			3,
		);
		await ledger.markSubmitting('spring', [3], 1);
		await ledger.settle('spring', 1, [{ line: 3, status: 'accepted', messageSid: 'SMs3' }]);
		const pending = [reply(BOB, 3, 'Count me in', 'SMs3r', 'spring')];
		const forwards = await forwardsOf(pending, campaignRows(api));
		expect(forwards.map((f) => (f as { context?: { name?: string } }).context?.name)).toEqual([
			'Bobby',
		]);
	});
});
