import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../sandbox/src';
import { SqliteLedger } from '../../../worker/src/storage/sqlite/sqliteLedger';
import {
	cli,
	envFor,
	sandboxForTests,
	sandboxMessages,
	startCli,
	summaryOf,
	tempDir,
	waitFor,
	writeCsv,
} from '../worker/harness';

const BASE = 'https://go.example.com';
const TEXT =
	'Hi {{Name}}, our sale: https://shop.example.com/sale?id={{Name}}. Map: https://maps.example.com/x';

/** `--track-links` on the CLI: what is sent, stored and previewed (SQLite; the store's model is one for both backends). */
describe('campaign run --track-links', () => {
	let sandbox: RunningSandbox;
	let env: Record<string, string>;
	sandboxForTests((s) => ({ sandbox, env } = s));

	const csv = (dir: string, n: number) =>
		writeCsv(
			dir,
			'list.csv',
			`Phone,Name\n${Array.from({ length: n }, (_, i) => `+6149157${String(1000 + i)},N${i}`).join('\n')}\n`,
		);
	const args = (file: string, db: string, name: string) => [
		'campaign',
		'run',
		'--csv',
		file,
		'--property',
		sandbox.demo.PropertySid,
		'--text',
		TEXT,
		'--db',
		db,
		'--name',
		name,
		'--track-links',
		'--link-base',
		`${BASE}/`,
	];

	it('sends every URL as {linkBase}/{token}, one token per recipient and URL, stored against the row', async () => {
		const dir = tempDir();
		const db = join(dir, 'l.db');
		const r = await cli(args(csv(dir, 3), db, 'tl-sent'), env);
		expect(r.code, r.stderr).toBe(0);
		const sent = (await sandboxMessages(sandbox)).filter((m) =>
			m.ExternalId?.startsWith('tl-sent:'),
		);
		expect(sent).toHaveLength(3);
		const ledger = new SqliteLedger(db, { readonly: true });
		try {
			const tokens = new Set<string>();
			for (const m of sent) {
				const line = Number(m.ExternalId!.split(':')[1]);
				const name = `N${line - 2}`;
				// Not \b: a token may end in '-', and a full stop after it leaves no word boundary.
				const found = [
					...m.Text.matchAll(/https:\/\/go\.example\.com\/([A-Za-z0-9_-]{10})(?![A-Za-z0-9_-])/g),
				].map((x) => x[1]);
				expect(found, m.Text).toHaveLength(2);
				// The sentence's full stop stays after the link; no original URL is left in the text.
				expect(m.Text).toMatch(
					new RegExp(`^Hi ${name}, our sale: ${BASE}/${found[0]}\\. Map: ${BASE}/${found[1]}$`),
				);
				const links = ledger.links();
				expect(await links.target(found[0])).toMatchObject({
					campaign: 'tl-sent',
					line,
					url: `https://shop.example.com/sale?id=${name}`,
				});
				expect(await links.target(found[1])).toMatchObject({
					line,
					url: 'https://maps.example.com/x',
				});
				for (const t of found) tokens.add(t);
			}
			expect(tokens.size).toBe(6);
			// What the ledger stored is what was counted and sent.
			const counts = await ledger.counts('tl-sent');
			expect(counts.acceptedSegments).toBe(sent.length);
		} finally {
			await ledger.close();
		}
	});

	it('a dry run counts the rewritten text and previews an example link', async () => {
		const dir = tempDir();
		const long = `Hi {{Name}} https://shop.example.com/${'a'.repeat(200)}`;
		const file = csv(dir, 2);
		const run = (track: boolean) =>
			cli(
				[
					'campaign',
					'run',
					'--csv',
					file,
					'--text',
					long,
					'--dry-run',
					'--db',
					join(dir, 'dry.db'),
					...(track ? ['--track-links', '--link-base', BASE] : []),
				],
				env,
			);
		const plain = summaryOf(await run(false));
		const tracked = await run(true);
		// 2 segments a row for the long URL, 1 once it is a short link.
		expect(plain.segments).toBe(4);
		expect(summaryOf(tracked).segments).toBe(2);
		const preview = (
			summaryOf(tracked) as unknown as {
				preview: { text: string; links: { token: string; url: string }[] }[];
			}
		).preview;
		expect(preview[0].text).toMatch(/^Hi N0 https:\/\/go\.example\.com\/[A-Za-z0-9_-]{10}$/);
		expect(preview[0].links[0].url).toBe(`https://shop.example.com/${'a'.repeat(200)}`);
	});

	it('a run stopped after its import sends each row later with the token it stored then', async () => {
		const dir = tempDir();
		const db = join(dir, 'l.db');
		const file = csv(dir, 4);
		const first = startCli(
			[...args(file, db, 'tl-crash'), '--rate', '1', '--batch-size', '1'],
			env,
		);
		await waitFor(async () =>
			(await sandboxMessages(sandbox)).some((m) => m.ExternalId?.startsWith('tl-crash:')),
		);
		first.child.kill('SIGKILL');
		await first.done;
		const stored = new Map<number, string>();
		const ledger = new SqliteLedger(db, { readonly: true });
		try {
			for await (const row of ledger.rows('tl-crash', ['pending'])) stored.set(row.line, row.text!);
		} finally {
			await ledger.close();
		}
		expect(stored.size).toBeGreaterThan(0);
		const again = await cli(args(file, db, 'tl-crash'), env);
		expect([0, 3]).toContain(again.code);
		const sent = (await sandboxMessages(sandbox)).filter((m) =>
			m.ExternalId?.startsWith('tl-crash:'),
		);
		for (const [line, text] of stored)
			expect(sent.find((m) => m.ExternalId === `tl-crash:${line}`)?.Text).toBe(text);
	});

	it('refuses --track-links without --link-base, and a link base with a query, naming the flag', async () => {
		const dir = tempDir();
		const file = csv(dir, 1);
		const base = [
			'campaign',
			'run',
			'--csv',
			file,
			'--text',
			'x',
			'--dry-run',
			'--db',
			join(dir, 'u.db'),
		];
		const missing = await cli([...base, '--track-links'], envFor(sandbox));
		expect(missing.code).toBe(2);
		expect(missing.stderr).toContain('--track-links needs --link-base URL');
		const query = await cli(
			[...base, '--track-links', '--link-base', 'https://go.example.com/?a=1'],
			env,
		);
		expect(query.code).toBe(2);
		expect(query.stderr).toContain('--link-base must have no query or fragment');
	});
});
