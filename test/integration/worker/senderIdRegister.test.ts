import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir, writeCsv } from './harness';

/**
 * Australia's SMS Sender ID Register: from 1 July 2026 an alphanumeric sender ID not
 * registered shows as "Unverified". The dry run says so before anything is sent, unless
 * the ID is listed as registered; numbers or other countries draw no warning.
 */
describe('the dry run and unregistered sender IDs', () => {
	it('warns when an alphanumeric --from goes to Australian numbers unlisted in --registered-sender-ids, naming the rule', async () => {
		const dir = tempDir();
		const csv = writeCsv(
			dir,
			'au.csv',
			'Phone,Name\n+61491570101,Ann\n+61491570102,Ben\n+64211234567,Kiri\n',
		);
		const run = (...more: string[]) =>
			cli([
				'campaign',
				'run',
				'--csv',
				csv,
				'--text',
				'Hi {{Name}}',
				'--db',
				join(dir, 'l.db'),
				'--dry-run',
				...more,
			]);
		const plain = await run('--from', 'BondiDeals');
		expect(plain.code, plain.stderr).toBe(0);
		const summary = plain.events.find((e) => e.event === 'summary') as unknown as {
			forecast: { senderId?: Record<string, unknown> };
		};
		expect(summary.forecast.senderId).toMatchObject({
			from: 'BondiDeals',
			country: 'AU',
			messages: 2,
			rule: expect.stringMatching(/SMS Sender ID Register.*1 July 2026.*"Unverified"/),
			message: expect.stringMatching(
				/^sender ID "BondiDeals" goes to 2 Australian numbers and is not listed as registered \(--registered-sender-ids, or senderIds.registered/,
			),
		});

		// Listed (in any case), or a number as sender: no warning.
		for (const more of [
			['--from', 'BondiDeals', '--registered-sender-ids', 'Other, bondideals'],
			['--from', '+61491570199'],
		]) {
			const quiet = await run(...more);
			expect(quiet.code, quiet.stderr).toBe(0);
			const s = quiet.events.find((e) => e.event === 'summary') as unknown as {
				forecast: Record<string, unknown>;
			};
			expect(s.forecast.senderId).toBeUndefined();
		}
	});
});
