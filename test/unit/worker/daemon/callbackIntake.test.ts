import { readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { CallbackEvent } from '../../../../api';
import type { ChunkSource, TakeContext } from '../../../../worker/src/campaign/chunkSource';
import { GatedChunks } from '../../../../worker/src/daemon/campaigns/sendingGate';
import type { DaemonStore } from '../../../../worker/src/storage/daemonStore';
import { JsonLogger } from '../../../../worker/src/daemon/jsonLogger';
import { CallbackIntake } from '../../../../worker/src/daemon/callbacks/2-spool/callbackIntake';
import { tempDir } from '../../../support/tempDir';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function reply(sid: string, text: string): CallbackEvent {
	return {
		kind: 'reply',
		data: {
			MessageSid: sid,
			OriginalMessageSid: 'o',
			AccountSid: 'a',
			PropertySid: 'p',
			From: '+61491570101',
			To: '+61400000001',
			Text: text,
			ExternalId: '',
			Timestamp: 1,
		},
	} as CallbackEvent;
}

/** A store that is down until told otherwise, and remembers what it took, in order. */
function fakeStore() {
	const taken: string[] = [];
	let down = true;
	const store = {
		recordEvent: async (key: string) => {
			if (down) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
			if (taken.includes(key)) return false;
			taken.push(key);
			return true;
		},
	} as unknown as DaemonStore;
	return { store, taken, up: () => (down = false) };
}

describe('the callback intake', () => {
	it('spools what the store cannot take (synced, 0600), feeds it in arrival order once the store answers, and holds sending until a processor pass after that', async () => {
		const dir = tempDir('cloudtel-intake-');
		dirs.push(dir);
		const { store, taken, up } = fakeStore();
		const lines: any[] = [];
		const intake = await CallbackIntake.open(
			store,
			join(dir, 'spool'),
			64 * 1024,
			new JsonLogger((l) => lines.push(JSON.parse(l))),
		);
		const processor = { passes: 0, kick: () => undefined };
		intake.start(processor);
		expect(intake.sendingMayGo()).toBe(true);
		expect(await intake.take('reply:1', reply('1', 'STOP'), 1)).toBe(true);
		expect(await intake.take('reply:2', reply('2', 'hello'), 2)).toBe(true);
		expect(intake.state()).toMatchObject({ storeDown: true, spooled: 2 });
		expect(intake.sendingMayGo()).toBe(false);
		const [file] = readdirSync(join(dir, 'spool'));
		expect(statSync(join(dir, 'spool', file)).mode & 0o777).toBe(0o600);
		expect(statSync(join(dir, 'spool', file)).size).toBe(64 * 1024);
		expect(lines.some((l) => l.msg === 'spooling callbacks: the store does not take them')).toBe(
			true,
		);

		up();
		const ended = await vi.waitFor(
			() =>
				lines.find((l) => l.msg === 'spooling ended: every spooled callback is in the store') ??
				Promise.reject(new Error('not yet')),
			{ timeout: 5_000, interval: 10 },
		);
		expect(ended).toMatchObject({ events: 2 });
		expect(taken).toEqual(['reply:1', 'reply:2']);
		// Fed, but not yet processed: sending still waits for the processor's next pass.
		expect(intake.sendingMayGo()).toBe(false);
		processor.passes++;
		expect(intake.sendingMayGo()).toBe(true);
		// Back to the store directly; a duplicate is said so.
		expect(await intake.take('reply:2', reply('2', 'hello'), 3)).toBe(false);
		await intake.close(0);
		expect(readdirSync(join(dir, 'spool'))).toEqual([]);
	});

	it('a spool left by a process that is gone is fed at the next start; a full spool refuses (503)', async () => {
		const dir = tempDir('cloudtel-intake-');
		dirs.push(dir);
		const spool = join(dir, 'spool');
		const first = fakeStore();
		const a = await CallbackIntake.open(
			first.store,
			spool,
			64 * 1024,
			new JsonLogger(() => undefined),
		);
		await a.take('reply:9', reply('9', 'STOP'), 9);
		// The process dies: its file stays, named after a pid that is gone.
		const [file] = readdirSync(spool);
		const orphan = join(spool, file.replace(/^spool-\d+-/, 'spool-999999-'));
		writeFileSync(orphan, (await import('node:fs')).readFileSync(join(spool, file)));
		rmSync(join(spool, file));
		const second = fakeStore();
		second.up();
		const b = await CallbackIntake.open(
			second.store,
			spool,
			64 * 1024,
			new JsonLogger(() => undefined),
		);
		expect(b.sendingMayGo()).toBe(false);
		b.start({ passes: 0, kick: () => undefined });
		// Fed, then removed: the file goes once everything in it is in the store.
		await vi.waitFor(
			() => expect(readdirSync(spool).some((f) => f.startsWith('spool-999999-'))).toBe(false),
			{ timeout: 5_000, interval: 10 },
		);
		expect(second.taken).toEqual(['reply:9']);
		await b.close(0);

		const tiny = fakeStore();
		const c = await CallbackIntake.open(
			tiny.store,
			join(dir, 'tiny'),
			64 * 1024,
			new JsonLogger(() => undefined),
		);
		const big = reply('x', 'y'.repeat(40_000));
		await c.take('reply:x1', big, 1);
		await expect(c.take('reply:x2', big, 2)).rejects.toThrow(/spool .* is full/);
		await c.close(0);
	});

	it('holds a campaign’s next rows while the gate is shut', async () => {
		let open = false;
		const calls: string[] = [];
		const source: ChunkSource = {
			together: false,
			recover: async () => 0,
			taker: () => ({ next: async () => (calls.push('take'), 'done' as const), suppressed: 0 }),
		};
		const lines: string[] = [];
		const gated = new GatedChunks(
			source,
			() => open,
			new JsonLogger((l) => lines.push(JSON.parse(l).msg)),
			new AbortController().signal,
		);
		const next = gated.taker({} as TakeContext).next();
		// The gate says it holds the rows: it does so before it would ask for them.
		await vi.waitFor(
			() =>
				expect(lines).toContain(
					'sending waits: callbacks received while the store was down are being taken in first',
				),
			{ timeout: 5_000, interval: 10 },
		);
		expect(calls).toEqual([]);
		open = true;
		expect(await next).toBe('done');
		expect(calls).toEqual(['take']);
	});
});
