import Database from 'better-sqlite3';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiCampaignDir } from '../../../worker/src/daemon/api/apiCampaignFiles';
import type { DbLocation } from '../../../worker/src/storage/dbLocation';
import { cleanupAfterEach } from '../../support/cleanup';
import { sql } from '../../support/postgres/database';
import { storeBackends } from '../../support/storeBackends';
import { until } from '../daemon/harness';
import { cli } from '../worker/harness';
import { apiWorkerRig } from './apiRig';

/** contact forget and the API campaigns not ended, in parts: one backend each. */
/** `only`: one of the two tests, where a backend's pair came near 60 s in one file (`.<backend>Second.test.ts` runs the second). */
export function scenarios(part: 'sqlite' | 'postgres', only?: 'first' | 'second'): void {
	/** The person asking to be forgotten, and how the lists write them. */
	const XENA = '+61491570399';
	const XENA_NATIONAL = '0491 570 399';

	const cleanup = cleanupAfterEach();

	/** Every stored page of a campaign as text (an uploaded CSV's pieces decoded). */
	async function storedPages(location: DbLocation, campaign: string): Promise<string> {
		const rows: { body: string; hash: string }[] =
			location.kind === 'sqlite'
				? (() => {
						const db = new Database(location.path, { readonly: true });
						try {
							return db
								.prepare('SELECT body, hash FROM api_pages WHERE campaign = ? ORDER BY page')
								.all(campaign) as { body: string; hash: string }[];
						} finally {
							db.close();
						}
					})()
				: await sql<{ body: string; hash: string }>(
						location.url,
						`SELECT body, hash FROM api_pages WHERE campaign = '${campaign}' ORDER BY page`,
					);
		return rows
			.map((r) =>
				r.body.startsWith('[') ? r.body : Buffer.from(r.body, 'base64').toString('utf8'),
			)
			.join('\n');
	}

	/** The CSV files in the worker's API folder, where a worker once wrote each campaign's as `<name>.csv`. */
	const csvFiles = (dir: string): string[] =>
		existsSync(dir)
			? readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.csv'))
			: [];

	const recipient = (i: number) => ({
		phone: `+614915704${String(i).padStart(2, '0')}`,
		first_name: `N${i}`,
	});

	describe.each(storeBackends().filter((b) => b.name === part))(
		'contact forget reaches the API campaigns not ended ($name)',
		(backend) => {
			const setUp = async (sandboxOptions: { latencyMs?: number } = {}) => {
				const rig = await apiWorkerRig(backend, cleanup, { sandbox: sandboxOptions });
				const forget = async () => {
					const r = await cli(['contact', 'forget', XENA, '--db', rig.db]);
					expect(r.code, r.stderr).toBe(0);
					return r.stdout;
				};
				const sentTo = async () => (await rig.driver.messages()).map((m) => String(m.To));
				return { ...rig, forget, sentTo, dir: apiCampaignDir(rig.location) };
			};

			it.runIf(only !== 'second')(
				'before the start: blanks them in the pages and an uploaded CSV, the same pages again are unchanged, and the campaigns send everyone else',
				async () => {
					const t = await setUp();
					// What an older worker left of a campaign's pages (beside the SQLite file): gone at the start.
					if (t.location.kind === 'sqlite') {
						mkdirSync(t.dir, { recursive: true });
						writeFileSync(join(t.dir, 'older.csv'), `phone\n${XENA}\n`);
					}
					await t.start();
					const property = t.sandbox.demo.PropertySid;
					expect(
						(
							await t.call('PUT', '/campaigns/early', {
								property,
								text: 'Hi {{first_name}}',
								defaultCountry: 'AU',
							})
						).status,
					).toBe(201);
					const page1 = { recipients: [0, 1, 2, 3, 4].map(recipient) };
					// Written as a person would, nationally; her name with her.
					// And named in another recipient's line: that recipient is still sent to, the value blanked.
					const page2 = {
						recipients: [
							...[5, 6].map(recipient),
							{ phone: XENA_NATIONAL, first_name: 'Xena' },
							recipient(7),
							{ ...recipient(8), referrer: `call ${XENA}` },
						],
					};
					expect((await t.call('PUT', '/campaigns/early/pages/1', page1)).status).toBe(200);
					expect((await t.call('PUT', '/campaigns/early/pages/2', page2)).status).toBe(200);
					expect(
						(await t.call('PUT', '/campaigns/upload', { property, text: 'Hi {{first_name}}' }))
							.status,
					).toBe(201);
					const csv = `phone,first_name\n${[10, 11].map((i) => `${recipient(i).phone},N${i}`).join('\n')}\n${XENA},"Xena, ""X"""\n${recipient(12).phone},N12\n`;
					expect(
						(await t.call('PUT', '/campaigns/upload/csv', csv, { type: 'text/csv' })).status,
					).toBe(200);
					// The engine reads the pages themselves: a preview writes no CSV of them.
					expect((await t.call('GET', '/campaigns/early/preview')).body.valid).toBe(10);
					expect(csvFiles(t.dir)).toEqual([]);

					const out = await t.forget();
					expect(out).toMatch(
						/2 recipients blanked in the pages of API campaigns early, upload; 1 other recipient naming it kept, the value blanked/,
					);
					for (const name of ['early', 'upload']) {
						const stored = await storedPages(t.location, name);
						for (const trace of ['491570399', XENA_NATIONAL, 'Xena'])
							expect(stored).not.toContain(trace);
					}
					if (t.location.kind === 'sqlite') {
						// Gone from the file's bytes too: not left in its free pages nor in its WAL.
						const path = t.location.path;
						const bytes = Buffer.concat([
							readFileSync(path),
							...(existsSync(`${path}-wal`) ? [readFileSync(`${path}-wal`)] : []),
						]);
						for (const trace of ['Xena', XENA_NATIONAL]) expect(bytes.includes(trace)).toBe(false);
					}
					expect(await storedPages(t.location, 'early')).toContain(
						`{"phone":"${recipient(8).phone}","first_name":"N8","referrer":"${' '.repeat(`call ${XENA}`.length)}"}`,
					);

					// The pages given again as first given (an n8n retry) are the same pages: unchanged, the number not back.
					expect((await t.call('PUT', '/campaigns/early/pages/2', page2)).body).toMatchObject({
						page: 2,
						unchanged: true,
					});
					expect(
						(await t.call('PUT', '/campaigns/upload/csv', csv, { type: 'text/csv' })).body,
					).toMatchObject({ unchanged: true });
					expect(await storedPages(t.location, 'early')).not.toContain('Xena');

					expect((await t.call('POST', '/campaigns/early/start', { pages: 2 })).status).toBe(202);
					expect((await t.call('POST', '/campaigns/upload/start')).status).toBe(202);
					for (const name of ['early', 'upload']) {
						await until(
							async () =>
								(await t.call('GET', `/campaigns/${name}`)).body.campaign.state === 'finished',
							30_000,
							`${name} finished`,
						);
						const { counts } = (await t.call('GET', `/campaigns/${name}`)).body.campaign;
						expect(counts).toMatchObject({
							recipients: name === 'early' ? 10 : 4,
							accepted: name === 'early' ? 9 : 3,
							invalid: 1,
							pending: 0,
						});
					}
					const sent = await t.sentTo();
					expect(sent).toHaveLength(12);
					expect(sent).not.toContain(XENA);
					expect(csvFiles(t.dir)).toEqual([]);
					const show = await cli(['contact', 'show', XENA, '--db', t.db, '--json']);
					expect(JSON.parse(show.stdout).events).toEqual([]);
				},
				120_000,
			);

			it.runIf(only !== 'first')(
				'while sending: erases the row and the pages, the only copies (no CSV is written of them); the run, killed and resumed, completes for everyone else',
				async () => {
					const t = await setUp();
					let worker = await t.start();
					const recipients = Array.from({ length: 20 }, (_, i) =>
						i === 15 ? { phone: XENA, first_name: 'Xena' } : recipient(i),
					);
					expect(
						(
							await t.call('PUT', '/campaigns/slow', {
								property: t.sandbox.demo.PropertySid,
								text: 'Hi {{first_name}}',
								rate: 2,
								batchSize: 1,
							})
						).status,
					).toBe(201);
					expect((await t.call('PUT', '/campaigns/slow/pages/1', { recipients })).status).toBe(200);
					expect((await t.call('POST', '/campaigns/slow/start', { pages: 1 })).status).toBe(202);
					await until(
						async () => (await t.call('GET', '/campaigns/slow')).body.campaign.counts.accepted >= 2,
						30_000,
						'some sent',
					);
					// Sending: the run reads its rows from the pages, no file.
					expect(csvFiles(t.dir)).toEqual([]);

					const out = await t.forget();
					expect(out).toMatch(
						new RegExp(
							`^forgot \\${XENA}: 1 row erased .*\\(campaigns slow\\); 1 recipient blanked in the pages of API campaign slow\n`,
						),
					);
					expect(await storedPages(t.location, 'slow')).not.toContain('491570399');
					const now = (await t.call('GET', '/campaigns/slow')).body.campaign;
					expect(now.state).toBe('sending');
					expect(now.counts.recipients).toBe(19);
					expect(now.counts.pending + now.counts.accepted).toBe(19);

					// Killed mid-run and started again: the run resumes (the blanked file is no edit to it) and ends.
					await worker.stop('SIGKILL');
					worker = await t.start();
					await until(
						async () => (await t.call('GET', '/campaigns/slow')).body.campaign.state === 'finished',
						60_000,
						'slow finished',
					);
					const { counts } = (await t.call('GET', '/campaigns/slow')).body.campaign;
					expect(counts.recipients).toBe(19);
					expect(counts.accepted + counts.uncertain).toBe(19);
					expect(counts.pending).toBe(0);
					const sent = await t.sentTo();
					expect(sent).not.toContain(XENA);
					expect(new Set(sent).size).toBe(sent.length);
					// Every accepted row reached the provider; an uncertain one may have, or the kill fell
					// between its mark and its request.
					expect(sent.length).toBeGreaterThanOrEqual(counts.accepted);
					expect(sent.length).toBeLessThanOrEqual(counts.accepted + counts.uncertain);
					expect(worker.count((l) => l.msg === 'API campaign stopped; it goes again')).toBe(0);
					// Nowhere left: not in the ledger, and no file was ever written of the pages.
					const show = await cli(['contact', 'show', XENA, '--db', t.db, '--json']);
					expect(JSON.parse(show.stdout).events).toEqual([]);
					expect(csvFiles(t.dir)).toEqual([]);
				},
				120_000,
			);
		},
	);
}
