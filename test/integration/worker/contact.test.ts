import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../sandbox/src';
import type { ContactHistory } from '../../../worker/src/storage/contact';
import type { Ledger } from '../../../worker/src/storage/ledger';
import { SqliteLedger } from '../../../worker/src/storage/sqlite/sqliteLedger';
import { dbLocation } from '../../../worker/src/storage/dbLocation';
import { openDaemonStore, openLedger } from '../../../worker/src/storage/openStores';
import { newDatabase } from '../../support/postgres/database';
import { cli, envFor, sandboxMessages, summaryOf, tempDir, withSandbox, writeCsv } from './harness';

const ANN = '+61491570156';
const BOB = '+61491570157';

let sandbox: RunningSandbox;
beforeAll(async () => {
	sandbox = await withSandbox();
}, 120_000);
afterAll(async () => sandbox?.close());

/** Two campaigns sent to Ann and Bob; then what the worker stores as callbacks come: receipts, a reply, STOP, START. */
async function history(db: string, open: () => Promise<Ledger>, p: string) {
	const dir = tempDir();
	const env = envFor(sandbox);
	for (const name of [`${p}-spring`, `${p}-summer`]) {
		const csv = writeCsv(dir, `${name}.csv`, `To,Name\n${ANN},Ann\n${BOB},Bob\n`);
		const r = await cli(
			[
				'campaign',
				'run',
				'--csv',
				csv,
				'--text',
				`Hi {{Name}}, the ${name.slice(p.length + 1)} sale`,
				'--property',
				sandbox.demo.PropertySid,
				'--db',
				db,
				'--name',
				name,
			],
			env,
		);
		expect(r.code, r.stderr).toBe(0);
	}
	const sids = new Map((await sandboxMessages(sandbox)).map((m) => [m.ExternalId, m.MessageSid]));
	const ledger = await open();
	try {
		// Each a moment after the one before, as callbacks come.
		const tick = () => new Promise((r) => setTimeout(r, 5));
		await tick();
		await ledger.recordDelivery({
			messageSid: sids.get(`${p}-spring:2`)!,
			campaign: `${p}-spring`,
			line: 2,
			status: 'Delivered',
			at: Math.floor(Date.now() / 1000),
			receivedAt: Date.now(),
		});
		await tick();
		// The worker keeps the reply's callback (its text) beside the reply it records.
		const store = await openDaemonStore(dbLocation(db), ledger);
		await store.recordEvent(
			'reply:SMreply1',
			{
				kind: 'reply',
				data: {
					AccountSid: 'AC',
					MessageSid: 'SMreply1',
					From: ANN,
					To: '+61480000001',
					Text: 'Stop please',
					OriginalMessageSid: sids.get(`${p}-spring:2`)!,
				} as never,
			},
			Date.now(),
		);
		await store.close();
		await ledger.recordReply({
			campaign: `${p}-spring`,
			line: 2,
			messageSid: 'SMreply1',
			at: Date.now(),
			optOut: true,
		});
		await tick();
		await ledger.addSuppression(ANN, 'replied STOP');
		await tick();
		await ledger.removeSuppression(ANN);
		await tick();
		await ledger.addSuppression(ANN, 'replied STOP');
	} finally {
		await ledger.close();
	}
	return { dir, env };
}

async function show(db: string, number = ANN): Promise<ContactHistory> {
	const r = await cli(['contact', 'show', number, '--db', db, '--json']);
	expect(r.code, r.stderr).toBe(0);
	return JSON.parse(r.stdout) as ContactHistory;
}

async function checks(db: string, open: () => Promise<Ledger>, p: string) {
	const { dir, env } = await history(db, open, p);
	const sidOf = async (externalId: string) =>
		(await sandboxMessages(sandbox)).find((m) => m.ExternalId === externalId)?.MessageSid;
	const before = await show(db);
	expect(before.suppressed?.reason).toBe('replied STOP');
	expect(before.events.map((e) => [e.kind, e.campaign ?? '', e.status ?? e.detail ?? ''])).toEqual([
		['message', `${p}-spring`, 'accepted'],
		['message', `${p}-summer`, 'accepted'],
		['receipt', `${p}-spring`, 'Delivered'],
		['reply', `${p}-spring`, 'opted out'],
		['opt-out', '', 'replied STOP'],
		['opt-in', '', 'replied to opt in'],
		['opt-out', '', 'replied STOP'],
	]);
	expect(before.events[0]).toMatchObject({ text: 'Hi Ann, the spring sale', line: 2 });
	expect(before.events[0].messageSid).toBe(await sidOf(`${p}-spring:2`));
	expect(before.events.every((e) => typeof e.at === 'number')).toBe(true);
	const text = await cli(['contact', 'show', ANN, '--db', db, '--time-zone', 'Australia/Sydney']);
	expect(text.stdout).toMatch(
		/^\+61491570156: 7 events; suppressed since \d{4}-\d\d-\d\d \d\d:\d\d UTC\+1[01] \(replied STOP\)\n/,
	);
	expect(text.stdout).toMatch(
		/ message +c\d-spring line 2 \(accepted, [\w-]+\): Hi Ann, the spring sale\n/,
	);
	expect(before.events[3]).toMatchObject({ kind: 'reply', text: 'Stop please' });
	expect(text.stdout).toMatch(/ reply +c\d-spring line 2 \(SMreply1, opted out\): Stop please\n/);

	const forget = await cli([
		'contact',
		'forget',
		'0491 570 156',
		'--default-country',
		'AU',
		'--db',
		db,
	]);
	expect(forget.code, forget.stderr).toBe(0);
	expect(forget.stdout.split('\n')[0]).toBe(
		`forgot ${ANN}: 2 rows erased with their texts, receipts and replies (campaigns ${p}-spring, ${p}-summer); 1 stored callback naming it; its opt-out is kept as a one-way hash, so no later campaign texts it`,
	);
	expect(forget.stdout.split('\n')[1]).toMatch(
		db.startsWith('postgres')
			? /^the tables that held it are vacuumed; /
			: / the freed space overwritten and the WAL emptied; no byte of it is left in the file$/,
	);
	const after = await show(db);
	expect(after).toEqual({ number: ANN, events: [] });
	// Bob is untouched.
	expect((await show(db, BOB)).events.map((e) => e.kind)).toEqual(['message', 'message']);
	// The suppression still holds for a list that brings Ann back.
	const autumnName = `${p}-autumn`;
	const csv = writeCsv(dir, 'autumn.csv', `To,Name\n${ANN},Ann\n${BOB},Bob\n`);
	const autumn = await cli(
		[
			'campaign',
			'run',
			'--csv',
			csv,
			'--text',
			'Hi {{Name}}',
			'--property',
			sandbox.demo.PropertySid,
			'--db',
			db,
			'--name',
			autumnName,
		],
		env,
	);
	expect(summaryOf(autumn).rows).toMatchObject({ accepted: 1, suppressed: 1 });
	expect(
		(await sandboxMessages(sandbox))
			.filter((m) => m.ExternalId?.startsWith(`${autumnName}:`))
			.map((m) => m.To),
	).toEqual([BOB]);
}

describe('contact show and forget', () => {
	it('on SQLite: every message, receipt, reply, opt-out and opt-in; then erased, the number gone from the file, its opt-out kept', async () => {
		const db = join(tempDir(), 'l.db');
		await checks(db, async () => new SqliteLedger(db), 'c1');
		// Not in the bytes of the ledger: forgotten, not only hidden (the autumn run stored it as suppressed, by design, once more).
		const ledger = new SqliteLedger(db);
		await ledger.forgetContact(ANN);
		await ledger.close();
		const bytes = readFileSync(db);
		expect(bytes.includes(Buffer.from(ANN))).toBe(false);
		expect(bytes.includes(Buffer.from('Hi Ann'))).toBe(false);
	}, 60_000);

	it('on Postgres, the same', async () => {
		const url = await newDatabase('contact');
		await checks(url, () => openLedger(dbLocation(url)), 'c2');
	}, 120_000);
});
