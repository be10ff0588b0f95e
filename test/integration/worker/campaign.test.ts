import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../sandbox/src';
import { outcomeCsv } from '../../../worker/src/daemon/dashboard/csvDownloads';
import { dbLocation } from '../../../worker/src/storage/dbLocation';
import { openLedger } from '../../../worker/src/storage/openStores';
import {
	cli,
	sandboxForTests,
	sandboxMessages,
	startCli,
	summaryOf,
	tempDir,
	waitFor,
	writeCsv,
} from './harness';

const DEMO = resolve(__dirname, '../../../examples/demo-campaign.csv');
const TEXT = 'Hi {{FirstName}}, your {{Store}} order {{Code}} is ready.';

describe('cloudtel campaign run, end to end against the sandbox', () => {
	let sandbox: RunningSandbox;
	let env: Record<string, string>;
	sandboxForTests((started) => ({ sandbox, env } = started));

	it('sends a campaign and accounts for every row, in the ledger, --out and the provider', async () => {
		const dir = tempDir();
		const db = join(dir, 'l.db');
		const out = join(dir, 'out.csv');
		const args = [
			'campaign',
			'run',
			'--csv',
			DEMO,
			'--property',
			sandbox.demo.PropertySid,
			'--text',
			TEXT,
			'--from',
			'CloudTel',
			'--default-country',
			'AU',
			'--name',
			'e2e',
			'--db',
			db,
			'--rate',
			'0',
			'--batch-size',
			'50',
		];
		const run = await cli([...args, '--out', out], env);
		expect(run.code, run.stderr).toBe(0);
		const s = summaryOf(run);
		expect(s.rows).toMatchObject({
			accepted: 301,
			invalid: 8,
			duplicate: 2,
			pending: 0,
			uncertain: 0,
		});
		expect(s.total).toBe(311);
		expect(s.firstErrors[0]).toMatchObject({ line: 7, code: 'INVALID_NUMBER' });
		expect(run.events.filter((e) => e.event === 'row-error').map((e) => e.line)).toEqual([
			7, 43, 81, 125, 239, 270, 291, 312,
		]);

		const messages = await sandboxMessages(sandbox);
		const ids = messages.map((m) => m.ExternalId);
		expect(new Set(ids).size).toBe(301);
		expect(ids).toContain('e2e:2');
		const first = messages.find((m) => m.ExternalId === 'e2e:2')!;
		expect(first).toMatchObject({
			To: '+61491570004',
			Text: 'Hi Grace, your Manly order PK1000 is ready.',
			From: 'CloudTel',
		});

		const lines = readFileSync(out, 'utf8').trim().split('\n');
		expect(lines[0]).toBe('row,To,status,MessageSid,ErrorCode,message');
		expect(lines).toHaveLength(312);
		expect(lines[1]).toMatch(new RegExp(`^2,\\+61491570004,accepted,${first.MessageSid},,$`));
		expect(lines.find((l) => l.startsWith('7,'))).toMatch(/^7,,invalid,,INVALID_NUMBER,/);
		// The dashboard's outcome CSV of the same ledger is the --out file, byte for byte.
		const ledger = await openLedger(dbLocation(db), { readonly: true });
		let downloaded = '';
		for await (const chunk of outcomeCsv(ledger, 'e2e')) downloaded += chunk;
		await ledger.close();
		expect(downloaded).toBe(readFileSync(out, 'utf8'));

		const status = await cli(['campaign', 'status', '--db', db, '--name', 'e2e', '--json']);
		expect(status.code).toBe(0);
		expect(JSON.parse(status.stdout)).toMatchObject({
			name: 'e2e',
			phase: 'finished',
			running: null,
			total: 311,
			rows: { accepted: 301, invalid: 8 },
		});

		// The same campaign again: nothing left to send, nothing sent twice.
		const again = await cli(args, env);
		expect(again.code).toBe(0);
		expect(await sandboxMessages(sandbox)).toHaveLength(301);

		const changed = await cli([...args.slice(0, -4), '--text', 'Other {{FirstName}}'], env);
		expect(changed.code).toBe(2);
		expect(changed.stderr).toMatch(/already exists .*--text/);
	});

	it('--dry-run sends nothing and shows counts, a preview and the first errors', async () => {
		const before = (await sandboxMessages(sandbox)).length;
		const dir = tempDir();
		const run = await cli([
			'campaign',
			'run',
			'--csv',
			DEMO,
			'--text',
			TEXT,
			'--default-country',
			'AU',
			'--db',
			join(dir, 'l.db'),
			'--dry-run',
			'--out',
			join(dir, 'o.csv'),
		]);
		expect(run.code, run.stderr).toBe(0);
		const s = summaryOf(run) as ReturnType<typeof summaryOf> & {
			preview: { line: number; text: string }[];
			dryRun: boolean;
		};
		expect(s.dryRun).toBe(true);
		expect(s.rows).toMatchObject({ pending: 301, invalid: 8, duplicate: 2 });
		expect(s.segments).toBe(301);
		expect(s.preview[0]).toMatchObject({
			line: 2,
			text: 'Hi Grace, your Manly order PK1000 is ready.',
		});
		expect(s.firstErrors.map((e) => e.line)).toEqual([7, 43, 81, 125, 239, 270, 291, 312]);
		const out = readFileSync(join(dir, 'o.csv'), 'utf8').trim().split('\n');
		expect(out).toHaveLength(312);
		// Every valid row's message as it would go, and its segments, to the last line.
		expect(out[0]).toBe('row,To,status,MessageSid,ErrorCode,message,text,segments');
		expect(out[1]).toBe('2,+61491570004,valid,,,,"Hi Grace, your Manly order PK1000 is ready.",1');
		const valid = out.filter((l) => l.includes(',valid,'));
		expect(valid).toHaveLength(301);
		for (const l of valid) expect(l).toMatch(/,"Hi [^"]+, your [^"]+ order PK\d+ is ready\.",1$/);
		expect(out.find((l) => l.startsWith('7,'))).toMatch(/,invalid,.*,,$/);
		expect(await sandboxMessages(sandbox)).toHaveLength(before);
	});

	it('--dry-run forecasts what saves money: cost, what makes messages UCS-2, what --smart-encoding saves, countries and the finish', async () => {
		const dir = tempDir();
		const text =
			'Hi {{FirstName}}, your {{Store}} order\u2019s ready for pickup \u2013 show code {{Code}} at the counter. Reply STOP to opt out.';
		const args = [
			'campaign',
			'run',
			'--csv',
			DEMO,
			'--text',
			text,
			'--default-country',
			'AU',
			'--db',
			join(dir, 'l.db'),
			'--dry-run',
			'--price-per-segment',
			'0.045',
			'--rate',
			'100',
		];
		const schedule = [
			'--schedule',
			'2030-05-01T08:00:00+10:00',
			'--send-window',
			'09:00-20:00',
			'--time-zone',
			'AUS Eastern Standard Time',
		];
		const plain = await cli([...args, ...schedule]);
		expect(plain.code, plain.stderr).toBe(0);
		const f = (summaryOf(plain) as unknown as { forecast: Record<string, unknown> }).forecast;
		expect(f).toMatchObject({
			messages: 301,
			segments: 602,
			pricePerSegment: 0.045,
			estimatedCost: 27.09,
		});
		expect(f.ucs2).toMatchObject({
			messages: 301,
			segments: 602,
			characters: [
				{ character: '\u2019', codePoint: 'U+2019', messages: 301 },
				{ character: '\u2013', codePoint: 'U+2013', messages: 301 },
			],
		});
		expect((f.ucs2 as { examples: unknown[] }).examples[0]).toEqual({
			line: 2,
			characters: '\u2019\u2013',
			text: 'Hi Grace, your Manly order\u2019s ready for pickup \u2013 show code PK1000 at the counter. Reply STOP to opt out.',
		});
		expect(f.smartEncoding).toEqual({
			on: false,
			messages: 301,
			segmentsSaved: 301,
			costSaved: 13.545,
		});
		expect(f.countries).toEqual([
			{ country: 'AU', messages: 300 },
			{ country: 'US', messages: 1 },
		]);
		// Handed over from 08:00 at 100/s, held by the provider until the window opens at 09:00 in Sydney.
		expect(f.finish).toEqual({
			at: '2030-04-30T23:00:00.000Z',
			local: '2030-05-01 09:00 UTC+10',
			zone: 'Australia/Sydney',
			handOffSeconds: 4,
			heldByWindow: true,
		});

		const smart = await cli([...args, '--smart-encoding', '--out', join(dir, 'smart.csv')]);
		const g = (summaryOf(smart) as unknown as { forecast: Record<string, unknown> }).forecast;
		expect(g).toMatchObject({
			messages: 301,
			segments: 301,
			estimatedCost: 13.545,
			ucs2: { messages: 0 },
			smartEncoding: { on: true, messages: 301, segmentsSaved: 301, costSaved: 13.545 },
		});
		expect(readFileSync(join(dir, 'smart.csv'), 'utf8').split('\n')[1]).toBe(
			`2,+61491570004,valid,,,,"Hi Grace, your Manly order's ready for pickup - show code PK1000 at the counter. Reply STOP to opt out.",1`,
		);
		// A late finish without a window: 301 messages at 10/s.
		const slow = await cli([...args.slice(0, -2), '--rate', '10']);
		expect(
			(summaryOf(slow) as unknown as { forecast: { finish: { handOffSeconds: number } } }).forecast
				.finish.handOffSeconds,
		).toBe(31);
	});

	it('--smart-encoding sends typographic characters as GSM-7, in a real run too', async () => {
		const dir = tempDir();
		const csv = writeCsv(dir, 'smart.csv', 'To,Name\n+61491570177,Zo\u00e9\n');
		const r = await cli(
			[
				'campaign',
				'run',
				'--csv',
				csv,
				'--text',
				'Hi {{Name}}, it\u2019s \u201cready\u201d \u2013 see you\u2026',
				'--property',
				sandbox.demo.PropertySid,
				'--db',
				join(dir, 'l.db'),
				'--name',
				'smart1',
				'--smart-encoding',
			],
			env,
		);
		expect(r.code, r.stderr).toBe(0);
		const sent = (await sandboxMessages(sandbox)).filter((m) => m.ExternalId === 'smart1:2');
		expect(sent.map((m) => m.Text)).toEqual(['Hi Zo\u00e9, it\'s "ready" - see you...']);
	});

	it('stops with a clear message on bad credentials, an unknown property or an unreadable file', async () => {
		const dir = tempDir();
		const csv = writeCsv(dir, 'a.csv', 'To,Name\n+61491570156,Ann\n');
		const base = [
			'campaign',
			'run',
			'--csv',
			csv,
			'--text',
			'Hi {{Name}}',
			'--db',
			join(dir, 'l.db'),
		];
		const badToken = await cli([...base, '--property', sandbox.demo.PropertySid], {
			...env,
			CLOUDTEL_AUTH_TOKEN: 'wrong',
		});
		expect(badToken.code).toBe(1);
		expect(badToken.stderr).toMatch(/refused the credentials \(HTTP 401/);
		const badProperty = await cli([...base, '--property', randomUUID()], env);
		expect(badProperty.code).toBe(1);
		expect(badProperty.stderr).toMatch(/does not know property/);
		const noFile = await cli(
			[
				'campaign',
				'run',
				'--csv',
				join(dir, 'nope.csv'),
				'--text',
				'x',
				'--property',
				sandbox.demo.PropertySid,
				'--db',
				join(dir, 'l.db'),
			],
			env,
		);
		expect(noFile.code).toBe(1);
		expect(noFile.stderr).toMatch(/cannot read the CSV file .*nope\.csv: no such file/);
		const noEnv = await cli([...base, '--property', sandbox.demo.PropertySid], {
			CLOUDTEL_BASE_URL: '',
			CLOUDTEL_ACCOUNT_SID: '',
			CLOUDTEL_AUTH_TOKEN: '',
		});
		expect(noEnv.code).toBe(2);
		expect(noEnv.stderr).toMatch(/CLOUDTEL_AUTH_TOKEN/);
		// A failed start leaves no campaign behind, so fixing the flag needs no new --name.
		const fixed = await cli([...base, '--property', sandbox.demo.PropertySid, '--name', 'a'], env);
		expect(fixed.code, fixed.stderr).toBe(0);
	});

	it('holds rows outside the send window with the Schedule of the next opening, per row zone too', async () => {
		const dir = tempDir();
		const h = new Date().getUTCHours();
		const pad = (n: number) => String(n % 24).padStart(2, '0');
		const window = `${pad(h + 2)}:00-${pad(h + 3)}:00`;
		const csv = writeCsv(
			dir,
			'w.csv',
			'To,Name,Zone\n+61491570110,Ann,\n+61491570313,Bob,Asia/Kolkata\n+61491570737,Cy,Not/AZone\n',
		);
		const run = await cli(
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
				join(dir, 'l.db'),
				'--name',
				'window',
				'--send-window',
				window,
				'--time-zone',
				'UTC',
				'--time-zone-column',
				'Zone',
			],
			env,
		);
		expect(run.code, run.stderr).toBe(0);
		expect(summaryOf(run).rows).toMatchObject({ accepted: 2, invalid: 1 });
		const mine = (await sandboxMessages(sandbox)).filter((m) =>
			m.ExternalId?.startsWith('window:'),
		);
		const now = Date.now() / 1000;
		const ann = mine.find((m) => m.ExternalId === 'window:2')!;
		const opening = new Date();
		opening.setUTCHours(h + 2, 0, 0, 0);
		expect(ann.Schedule).toBe(opening.getTime() / 1000);
		const bob = mine.find((m) => m.ExternalId === 'window:3')!;
		// Kolkata is UTC+5:30: its opening is another instant, in the future and within a day.
		expect(bob.Schedule).toBeGreaterThan(now);
		expect(bob.Schedule).toBeLessThan(now + 86_400);
		expect(bob.Schedule).not.toBe(ann.Schedule);
	});

	it('passes --schedule as Schedule, and waits itself when it is beyond 14 days', async () => {
		const dir = tempDir();
		const csv = writeCsv(dir, 's.csv', 'To,Name\n+61491570156,Ann\n');
		const at = new Date(Date.now() + 2 * 3600_000);
		const run = await cli(
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
				join(dir, 'l.db'),
				'--name',
				'later',
				'--schedule',
				at.toISOString(),
			],
			env,
		);
		expect(run.code, run.stderr).toBe(0);
		const m = (await sandboxMessages(sandbox)).find((x) => x.ExternalId === 'later:2')!;
		expect(m.Schedule).toBe(Math.floor(at.getTime() / 1000));
		expect(m.Status).toBe('Scheduled');

		const far = new Date(Date.now() + 20 * 86_400_000).toISOString();
		const waiting = startCli(
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
				join(dir, 'l.db'),
				'--name',
				'far',
				'--schedule',
				far,
			],
			env,
		);
		let seen = '';
		waiting.child.stdout!.on('data', (d) => (seen += d));
		await waitFor(() => seen.includes('"event":"wait"'));
		waiting.child.kill('SIGTERM');
		const stopped = await waiting.done;
		expect(stopped.code).toBe(130);
		expect((await sandboxMessages(sandbox)).some((x) => x.ExternalId === 'far:2')).toBe(false);
	});

	it('names an unknown command', async () => {
		const unknown = await cli(['campaign', 'launch']);
		expect(unknown.code).toBe(2);
		expect(unknown.stderr).toMatch(/unknown campaign command "launch"/);
	});
});
