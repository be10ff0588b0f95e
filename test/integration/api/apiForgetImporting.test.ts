import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CampaignSettings } from '../../../api';
import { inputChange } from '../../../worker/src/campaign/inputCheck';
import { apiCampaignCsvPath } from '../../../worker/src/daemon/api/apiCampaignFiles';
import { forgetInApiCampaigns } from '../../../worker/src/daemon/api/forgetInApiCampaigns';
import { materializeCsv } from '../../../worker/src/daemon/api/materializeCsv';
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
 * A resume compares the CSV with the mark its import left (the first bytes read, their
 * hash) and refuses a changed file once something was sent. `contact forget` blanks the
 * number in the local CSV of an import under way: the mark must follow, or the resume of
 * that campaign would stop for good.
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

	it('blanks the local CSV in place and moves the import mark with it, so a resume finds the file unchanged', async () => {
		const { ledger, store } = await openStores();
		const dir = mkdtempSync(join(tmpdir(), 'cloudtel-forget-import-'));
		const path = apiCampaignCsvPath(dir, 'mid');
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
		expect(await store.transition('mid', ['draft'], 'started', 2)).toBe(true);
		// As the run left it: the CSV written from the pages, its first five lines imported (one sent), the mark over them.
		await materializeCsv(store, 'mid', 'pages', path);
		const before = readFileSync(path);
		const read = before.indexOf('\n', before.indexOf(XENA)) + 1 + 40;
		await ledger.createCampaign({
			name: 'mid',
			csvPath: path,
			propertySid: SETTINGS.property,
			text: SETTINGS.text,
		});
		const mark = {
			bytes: read,
			hash: createHash('sha256').update(before.subarray(0, read)).digest('hex'),
			size: before.length,
		};
		await ledger.importBatch(
			'mid',
			[2, 3, 4, 5].map((line) => ({
				line,
				to: recipients[line - 2].phone,
				text: 'Hi',
				segments: 1,
				status: 'pending' as const,
			})),
			5,
			mark,
		);
		await ledger.markSubmitting('mid', [2], 1);
		await ledger.settle('mid', 1, [{ line: 2, status: 'accepted', messageSid: 'SM1' }]);
		expect(await inputChange(path, (await ledger.campaign('mid'))!.input!)).toBeUndefined();

		const result = await forgetInApiCampaigns(store, ledger, dir, XENA);
		expect(result).toEqual({
			recipients: 1,
			mentions: 0,
			campaigns: ['mid'],
			files: 1,
			importing: ['mid'],
		});
		const after = readFileSync(path, 'utf8');
		expect(after).not.toContain('491570399');
		expect(after).not.toContain('Xena');
		expect(statSync(path).size).toBe(before.length);
		// Every line but hers as it was.
		const [was, now] = [before.toString('utf8').split('\n'), after.split('\n')];
		expect(now.filter((l, i) => l !== was[i])).toEqual([
			`"${' '.repeat(XENA.length)}","${' '.repeat(4)}"`,
		]);
		// The resume's comparison: the blanked file is what the import's mark now says.
		const input = (await ledger.campaign('mid'))!.input!;
		expect(input.bytes).toBe(read);
		expect(await inputChange(path, input)).toBeUndefined();
		// And the same bytes as a worker writes from the pages again (a resume of the import on another host).
		const again = join(dir, 'again.csv');
		await materializeCsv(store, 'mid', 'pages', again);
		expect(readFileSync(again, 'utf8')).toBe(after);
		expect(await forgetInApiCampaigns(store, ledger, dir, XENA)).toEqual({
			recipients: 0,
			mentions: 0,
			campaigns: [],
			files: 0,
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

		expect(
			await forgetInApiCampaigns(
				store,
				ledger,
				mkdtempSync(join(tmpdir(), 'cloudtel-forget-upload-')),
				XENA,
			),
		).toEqual({ recipients: 2, mentions: 0, campaigns: ['upload'], files: 0, importing: [] });
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
			expect(
				(
					await forgetInApiCampaigns(
						store,
						ledger,
						mkdtempSync(join(tmpdir(), 'cloudtel-forget-big-')),
						XENA,
					)
				).recipients,
			).toBe(1);
			const bytes = Buffer.concat([
				readFileSync(location.path),
				...(existsSync(`${location.path}-wal`) ? [readFileSync(`${location.path}-wal`)] : []),
			]);
			expect(bytes.includes('Xenophon')).toBe(false);
			expect(bytes.includes('N1235')).toBe(true);
		},
	);

	it('replaces a local CSV that is not what the pages make (another length) with what they make now, and moves the mark to it', async () => {
		const { ledger, store } = await openStores();
		const dir = mkdtempSync(join(tmpdir(), 'cloudtel-forget-other-'));
		const path = apiCampaignCsvPath(dir, 'odd');
		await store.create('odd', SETTINGS, 1);
		const recipients = [
			{ phone: '+61491570410', first_name: 'Ann' },
			{ phone: XENA, first_name: 'Xena' },
		];
		const body = JSON.stringify(recipients);
		await store.putPage(
			'odd',
			{
				page: 1,
				hash: createHash('sha256').update(body).digest('hex'),
				recipients: 2,
				columns: ['phone', 'first_name'],
				body,
			},
			1,
		);
		expect(await store.transition('odd', ['draft'], 'started', 2)).toBe(true);
		await materializeCsv(store, 'odd', 'pages', path);
		const made = readFileSync(path);
		writeFileSync(path, Buffer.concat([made, Buffer.from('"+61491570420","Bob"\n')]));
		await ledger.createCampaign({
			name: 'odd',
			csvPath: path,
			propertySid: SETTINGS.property,
			text: SETTINGS.text,
		});
		await ledger.importBatch('odd', [], 1, {
			bytes: made.length,
			hash: createHash('sha256').update(made).digest('hex'),
			size: made.length + 21,
		});

		expect(await forgetInApiCampaigns(store, ledger, dir, XENA)).toMatchObject({
			recipients: 1,
			files: 1,
		});
		const now = readFileSync(path, 'utf8');
		expect(now).not.toContain('Xena');
		expect(now).not.toContain('Bob');
		expect(now.length).toBe(made.length);
		expect(await inputChange(path, (await ledger.campaign('odd'))!.input!)).toBeUndefined();
	});
});
