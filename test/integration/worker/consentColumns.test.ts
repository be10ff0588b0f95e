import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../sandbox/src';
import { storeBackends } from '../../support/storeBackends';
import { cli, envFor, summaryOf, tempDir, withSandbox, writeCsv } from './harness';

const ANN = '+61491570901';
const BEN = '+61491570902';
const CAL = '+61491570903';

let sandbox: RunningSandbox;
beforeAll(async () => {
	sandbox = await withSandbox();
}, 120_000);
afterAll(async () => sandbox?.close());

/**
 * Consent read from the list: stored per number the first time it is seen, kept when a
 * later list omits it, required on request. On both backends: the record is the store's.
 */
describe.each(storeBackends())('consent columns ($name)', (backend) => {
	it('--consent-column and --consent-at-column record each number once; --require-consent makes a row without any NO_CONSENT', async () => {
		const location = backend.location();
		const db = location.kind === 'sqlite' ? location.path : location.url;
		const dir = tempDir();
		const run = async (name: string, csv: string, more: string[] = []) =>
			cli(
				[
					'campaign',
					'run',
					'--csv',
					writeCsv(dir, `${name}.csv`, csv),
					'--text',
					'Hi {{Name}}',
					'--property',
					sandbox.demo.PropertySid,
					'--db',
					db,
					'--name',
					name,
					'--consent-column',
					'Source',
					...more,
				],
				envFor(sandbox),
			);
		const first = await run(
			'march',
			`Phone,Name,Source,When\n${ANN},Ann,web form 2026-03,2026-03-14T09:30:00Z\n${BEN},Ben,in-store,\n${CAL},Cal,,\n`,
			['--consent-at-column', 'When', '--require-consent'],
		);
		expect(first.code, first.stderr).not.toBe(2);
		expect(summaryOf(first).rows).toMatchObject({ accepted: 2, invalid: 1 });
		// A later list without consent for Ann, and another source for Ben: both kept as first recorded.
		const second = await run(
			'april',
			`Phone,Name,Source\n${ANN},Ann,\n${BEN},Ben,newsletter\n${CAL},Cal,\n`,
			['--require-consent'],
		);
		expect(summaryOf(second).rows).toMatchObject({ accepted: 2, invalid: 1 });
		const out = join(dir, 'april.json');
		const evidence = await cli([
			'campaign',
			'evidence',
			'--name',
			'april',
			'--db',
			db,
			'--out',
			out,
			'--json',
		]);
		expect(evidence.code, evidence.stderr).toBe(0);
		const rows = JSON.parse(readFileSync(out, 'utf8')).rows;
		expect(rows.map((r: any) => [r.number, r.status, r.consentSource, r.consentAt])).toEqual([
			[ANN, 'accepted', 'web form 2026-03', Date.parse('2026-03-14T09:30:00Z')],
			[BEN, 'accepted', 'in-store', expect.any(Number)],
			[CAL, 'invalid', undefined, undefined],
		]);
		const status = await cli(['campaign', 'status', '--name', 'april', '--db', db, '--json']);
		expect(status.stdout).toContain('NO_CONSENT');

		const refused = await run('may', `Phone,Name\n${ANN},Ann\n`, ['--require-consent']);
		expect(refused.code).toBe(2);
		expect(refused.stderr).toContain('--consent-column: Source is not a column of');
	}, 60_000);
});
