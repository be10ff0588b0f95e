import { rmSync } from 'node:fs';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { linkRoutes } from '../../../../worker/src/daemon/http/linkRoutes';
import { JsonLogger } from '../../../../worker/src/daemon/jsonLogger';
import { CallbackIntake } from '../../../../worker/src/daemon/callbacks/2-spool/callbackIntake';
import type { DaemonStore, IntakeEvent } from '../../../../worker/src/storage/daemonStore';
import { tempDir } from '../../../support/tempDir';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('a click while the store is down', () => {
	it('is redirected at once, spooled, fed into the store once it answers (none lost), and the intake kicks the processor', async () => {
		const dir = tempDir('cloudtel-links-');
		dirs.push(dir);
		const taken: { key: string; event: IntakeEvent }[] = [];
		let down = true;
		const store = {
			recordEvent: async (key: string, event: IntakeEvent) => {
				if (down) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
				taken.push({ key, event });
				return true;
			},
		} as unknown as DaemonStore;
		const log = new JsonLogger(() => undefined);
		const intake = await CallbackIntake.open(store, join(dir, 'spool'), 64 * 1024, log);
		let kicks = 0;
		intake.start({ passes: 0, kick: () => void kicks++ });
		const app = Fastify();
		await app.register(
			linkRoutes({
				path: '/l',
				ttlMs: 90 * 86_400_000,
				// The link was looked up (a store that answers reads, not writes: a full disk, say).
				target: async () => ({
					url: 'https://shop.example.com/',
					createdAt: Date.now(),
					campaign: 'c',
					line: 2,
				}),
				store: (key, event, at) => intake.take(key, event, at),
				log,
			}),
		);
		try {
			const clicks = await Promise.all(
				['AbCdEfGhIj', 'AbCdEfGhIj', 'ZyXwVuTsRq'].map((t) => app.inject({ url: `/l/${t}` })),
			);
			for (const r of clicks) {
				expect(r.statusCode).toBe(302);
				expect(r.headers.location).toBe('https://shop.example.com/');
			}
			await vi.waitFor(() => expect(intake.state()).toMatchObject({ storeDown: true, spooled: 3 }));
			down = false;
			await vi.waitFor(() => expect(taken).toHaveLength(3), { timeout: 5_000, interval: 10 });
			expect(taken.map((t) => t.event)).toEqual([
				expect.objectContaining({
					kind: 'click',
					data: expect.objectContaining({ Token: 'AbCdEfGhIj' }),
				}),
				expect.objectContaining({
					kind: 'click',
					data: expect.objectContaining({ Token: 'AbCdEfGhIj' }),
				}),
				expect.objectContaining({
					kind: 'click',
					data: expect.objectContaining({ Token: 'ZyXwVuTsRq' }),
				}),
			]);
			// Two clicks on one link are two events, each of its own key.
			expect(new Set(taken.map((t) => t.key)).size).toBe(3);
			// With the store up, the intake's own kick is what tells the processor of a click.
			const before = kicks;
			expect((await app.inject({ url: '/l/QwErTyUiOp' })).statusCode).toBe(302);
			await vi.waitFor(() => expect(taken).toHaveLength(4));
			await vi.waitFor(() => expect(kicks).toBeGreaterThan(before));
		} finally {
			await app.close();
			await intake.close(0);
		}
	});
});
