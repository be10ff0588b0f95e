import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { CampaignSettings } from '../../../api';
import { forgetInApiCampaigns } from '../../../worker/src/daemon/api/forgetInApiCampaigns';
import { recipientRows } from '../../../worker/src/daemon/api/recipientRows';
import { openApiCampaignStore } from '../../../worker/src/storage/openApiCampaignStore';
import { openLedger } from '../../../worker/src/storage/openStores';
import { cleanupAfterEach } from '../../support/cleanup';
import { storeBackends } from '../../support/storeBackends';

const cleanup = cleanupAfterEach();

const XENA = '+61491570399';
const SETTINGS: CampaignSettings = {
	property: '0b6f1c2e-3d4a-4b5c-8d9e-0f1a2b3c4d5e',
	text: 'Hi {{first_name}}',
};

/**
 * `contact forget` blanks the number in the pages of the API campaigns not ended, the one
 * place their recipients are kept: an import under way reads blanks from then on, and
 * every other row where it was.
 */
describe.each(storeBackends())('contact forget during an import ($name)', (backend) => {
	/** The ledger and the API campaign store on the test's database, closed after it. */
	async function openStores() {
		const ledger = await openLedger(backend.location());
		const store = await openApiCampaignStore(backend.location(), ledger);
		cleanup.push(
			() => ledger.close(),
			() => store.close(),
		);
		return { ledger, store };
	}

	it('blanks her in the pages of an import under way, every other row where it was, and names it importing', async () => {
		const { ledger, store } = await openStores();
		await store.create('mid', SETTINGS, 1);
		const recipients = Array.from({ length: 8 }, (_, i) => ({
			phone: i === 2 ? XENA : `+614915704${i}0`,
			first_name: i === 2 ? 'Xena' : `N${i}`,
		}));
		const body = JSON.stringify(recipients);
		const hash = createHash('sha256').update(body).digest('hex');
		await store.putPage(
			'mid',
			{ page: 1, hash, recipients: 8, columns: ['phone', 'first_name'], body },
			1,
		);
		const spec = { name: 'mid', csvPath: 'r', propertySid: 'PR1', text: 'Hi {{first_name}}' };
		expect(await store.start('mid', spec, 2)).toBe(true);
		const record = (await store.campaign('mid'))!;
		const rows = async () => {
			const csv = await recipientRows(store, record)();
			const items = [];
			for await (const batch of csv.batches) items.push(...batch.items);
			return items;
		};
		const before = await rows();
		// As the run left it: its first three rows imported, her line among them still to come.
		await ledger.createCampaign({
			name: 'mid',
			csvPath: "the recipients' CSV",
			propertySid: SETTINGS.property,
			text: SETTINGS.text,
		});
		await ledger.importBatch(
			'mid',
			[2, 3].map((line) => ({
				line,
				to: recipients[line - 2].phone,
				text: 'Hi',
				segments: 1,
				status: 'pending' as const,
			})),
			3,
		);

		expect(await forgetInApiCampaigns(store, ledger, XENA)).toEqual({
			recipients: 1,
			mentions: 0,
			campaigns: ['mid'],
			importing: ['mid'],
		});
		expect(JSON.stringify(await store.pagesAfter('mid', 0, 10))).not.toContain('Xena');
		// What the import reads on: her line blanked where it was, every other line as it was.
		const after = await rows();
		expect(after.filter((item, i) => JSON.stringify(item) !== JSON.stringify(before[i]))).toEqual([
			{ line: 4, fields: [' '.repeat(XENA.length), ' '.repeat(4)] },
		]);
		expect(await forgetInApiCampaigns(store, ledger, XENA)).toEqual({
			recipients: 0,
			mentions: 0,
			campaigns: [],
			importing: [],
		});
	});

	it('blanks her lines in an uploaded CSV stored in pieces that cut through lines, each piece as long as it was', async () => {
		const { ledger, store } = await openStores();
		await store.create('upload', { ...SETTINGS, defaultCountry: 'AU' }, 1);
		const csv = `phone;first_name;note\r\n+61491570410;Ann;x\r\n0491 570 399;Xena;"née ""X""; flat 2"\r\n+61491570420;Bob;y\r\n(04) 9157 0399;Xena again;z\r\n+61491570430;Cy;`;
		const bytes = Buffer.from(csv, 'utf8');
		// Seven bytes a piece: every line spans several.
		const pieces = [];
		for (let at = 0, page = 1; at < bytes.length; at += 7, page++) {
			const piece = bytes.subarray(at, at + 7);
			pieces.push({
				page,
				hash: createHash('sha256').update(piece).digest('hex'),
				recipients: page === 1 ? 5 : 0,
				columns: page === 1 ? ['phone', 'first_name', 'note'] : [],
				body: piece.toString('base64'),
			});
		}
		expect((await store.putCsv('upload', 'csv-hash', pieces, 1)).outcome).toBe('stored');

		expect(await forgetInApiCampaigns(store, ledger, XENA)).toEqual({
			recipients: 2,
			mentions: 0,
			campaigns: ['upload'],
			importing: [],
		});
		const stored = await store.pagesAfter('upload', 0, 1000);
		expect(stored.map((p) => Buffer.from(p.body, 'base64').length)).toEqual(
			pieces.map((p) => Buffer.from(p.body, 'base64').length),
		);
		const now = Buffer.concat(stored.map((p) => Buffer.from(p.body, 'base64'))).toString('utf8');
		const blank = (line: string) =>
			Buffer.from(line, 'utf8')
				.toString('latin1')
				.replace(/[^";,|\t]/g, ' ');
		const lines = csv.split('\r\n');
		expect(now.split('\r\n')).toEqual([
			lines[0],
			lines[1],
			blank(lines[2]),
			lines[3],
			blank(lines[4]),
			lines[5],
		]);
		// What a run reads of them: the pieces' bytes through the CSV reader, her lines blank, the others as they were.
		const csvRows = await recipientRows(store, (await store.campaign('upload'))!)();
		expect(csvRows.header).toEqual(['phone', 'first_name', 'note']);
		const items = [];
		for await (const batch of csvRows.batches) items.push(...batch.items);
		expect(items.map((i) => i.line)).toEqual([2, 3, 4, 5, 6]);
		expect(items[0]).toEqual({ line: 2, fields: ['+61491570410', 'Ann', 'x'] });
		expect(items[4]).toEqual({ line: 6, fields: ['+61491570430', 'Cy', ''] });
		expect(JSON.stringify(items)).not.toMatch(/Xena|0399/);
		// The same CSV uploaded again is the same upload.
		expect((await store.putCsv('upload', 'csv-hash', pieces, 2)).outcome).toBe('unchanged');
	});

	it.runIf(backend.name === 'sqlite')(
		'leaves no copy of the blanked page in the file: not in its free pages, not in its WAL',
		async () => {
			const location = backend.location();
			if (location.kind !== 'sqlite') return;
			const { ledger, store } = await openStores();
			await store.create('big', SETTINGS, 1);
			// A page of thousands spans many of the file's pages (an overflow chain), rewritten elsewhere.
			const recipients = Array.from({ length: 4000 }, (_, i) =>
				i === 1234
					? { phone: XENA, first_name: 'Xenophon' }
					: { phone: `+6149157${1000 + i}`, first_name: `N${i}` },
			);
			const body = JSON.stringify(recipients);
			await store.putPage(
				'big',
				{
					page: 1,
					hash: createHash('sha256').update(body).digest('hex'),
					recipients: recipients.length,
					columns: ['phone', 'first_name'],
					body,
				},
				1,
			);
			expect((await forgetInApiCampaigns(store, ledger, XENA)).recipients).toBe(1);
			const bytes = Buffer.concat([
				readFileSync(location.path),
				...(existsSync(`${location.path}-wal`) ? [readFileSync(`${location.path}-wal`)] : []),
			]);
			expect(bytes.includes('Xenophon')).toBe(false);
			expect(bytes.includes('N1235')).toBe(true);
		},
	);
});
