import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../sandbox/src';
import {
	envFor,
	numbersCsv,
	sandboxMessages,
	startCli,
	tempDir,
	withSandbox,
	writeCsv,
} from './harness';

describe('the same new campaign started twice at once', () => {
	let sandbox: RunningSandbox;
	beforeAll(async () => {
		sandbox = await withSandbox();
	});
	afterAll(async () => sandbox?.close());

	it('one run sends, the other says which run holds it (pid, host), never a UNIQUE constraint', async () => {
		for (let round = 0; round < 3; round++) {
			const dir = tempDir();
			const name = `twice${round}`;
			const csv = writeCsv(dir, 'list.csv', numbersCsv(100, round * 1000));
			const args = [
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
				name,
				'--rate',
				'100',
			];
			const [a, b] = await Promise.all([
				startCli(args, envFor(sandbox)).done,
				startCli(args, envFor(sandbox)).done,
			]);
			const results = [a, b].sort((x, y) => (x.code ?? 0) - (y.code ?? 0));
			expect(
				results.map((r) => r.code),
				results.map((r) => r.stderr).join('\n'),
			).toEqual([0, 1]);
			expect(results[1].stderr).toMatch(
				/^cloudtel: campaign twice\d is already running \(pid \d+ on .+\); a second run would race it\n$/,
			);
			const sent = (await sandboxMessages(sandbox)).filter((m) =>
				m.ExternalId?.startsWith(`${name}:`),
			);
			expect(new Set(sent.map((m) => m.ExternalId)).size).toBe(100);
			expect(sent).toHaveLength(100);
		}
	});
});
