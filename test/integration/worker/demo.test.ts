import { describe, expect, it } from 'vitest';
import { cli } from './harness';

describe('cloudtel demo', () => {
	it("shows the whole loop: the campaign, then its receipts with delivered and failed counts and the sandbox's deliberate failures by ErrorCode", async () => {
		const run = await cli(['demo', '--json']);
		expect(run.code, run.stderr).toBe(0);
		const summary = run.events.find((e) => e.event === 'summary') as {
			rows: Record<string, number>;
		};
		expect(summary.rows).toMatchObject({ accepted: 301, invalid: 8, duplicate: 2 });
		const receipts = run.events.find((e) => e.event === 'receipts');
		// The demo list holds two numbers ending 0666 and one ending 0667.
		expect(receipts).toMatchObject({
			delivered: 298,
			failed: 3,
			failedByCode: { UNDELIVERABLE: 2, UNKNOWN_SUBSCRIBER: 1 },
			awaitingReceipt: 0,
		});
		expect(receipts?.message).toBe(
			'receipts: delivered 298, failed 3 (UNDELIVERABLE 2, UNKNOWN_SUBSCRIBER 1), awaiting receipt 0',
		);
		// After the run's own summary: the receipts come once every row is sent.
		expect(run.events.findIndex((e) => e.event === 'receipts')).toBeGreaterThan(
			run.events.findIndex((e) => e.event === 'summary'),
		);
	}, 60_000);

	it('prints the receipts line for a person, too', async () => {
		const run = await cli(['demo']);
		expect(run.code, run.stderr).toBe(0);
		expect(run.stdout + run.stderr).toContain(
			'receipts: delivered 298, failed 3 (UNDELIVERABLE 2, UNKNOWN_SUBSCRIBER 1), awaiting receipt 0',
		);
	}, 60_000);
});
