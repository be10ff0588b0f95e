import { existsSync } from 'node:fs';
import { durationMs } from '../../../api';
import { deliveryOf, type Delivery } from '../daemon/callbacks/6-forward/deliveryView';
import { FatalError, UsageError } from '../errors';
import { dbLocation } from '../storage/dbLocation';
import { openDaemonStore } from '../storage/openStores';
import { dbSetting } from './campaignRunCommand';
import { parseFlags } from '../settings/parseFlags';

/** `--since`: an ISO time, or a duration back from now (`2h`, `3d`). */
function sinceMs(value: string | undefined, now: number): number | undefined {
	if (value === undefined) return undefined;
	const ago = durationMs(value);
	if (ago !== undefined) return now - ago;
	const at = Date.parse(value);
	if (Number.isNaN(at))
		throw new UsageError(
			`--since "${value}" is neither a time (2026-11-27T09:00:00Z) nor a duration back from now (2h, 3d)`,
		);
	return at;
}

/**
 * `cloudtel events list|replay`: the delivery log of every POST out (events, forwards to
 * n8n, reply posts), and sending failed or dead ones again under their own webhook-id.
 * A replay puts them back in the outbox: the running worker sends them at its next look
 * (within 30 s), or the next worker to start on this database does.
 */
export async function eventsCommand(action: string | undefined, argv: string[]): Promise<number> {
	if (action !== 'list' && action !== 'replay')
		throw new UsageError(
			`unknown events command ${action === undefined ? '(none)' : JSON.stringify(action)}: use list or replay`,
		);
	const values = parseFlags(argv, {
		db: { type: 'string' },
		failed: { type: 'boolean' },
		dead: { type: 'boolean' },
		'dead-only': { type: 'boolean' },
		since: { type: 'string' },
		type: { type: 'string' },
		destination: { type: 'string' },
		json: { type: 'boolean' },
	});
	const now = Date.now();
	if (action === 'replay' && values.since === undefined)
		throw new UsageError(
			'events replay needs --since TIME: the deliveries queued since then go again',
		);
	if (action === 'list' && (values['dead-only'] || values.type || values.destination))
		throw new UsageError('--dead-only, --type and --destination are for events replay');
	if (action === 'replay' && (values.failed || values.dead))
		throw new UsageError('--failed and --dead are for events list (replay takes --dead-only)');
	if (values.failed && values.dead) throw new UsageError('give --failed or --dead, not both');
	const since = sinceMs(values.since, now);
	const db = dbLocation(dbSetting(values.db));
	if (db.kind === 'sqlite' && !existsSync(db.path))
		throw new FatalError(`no database at ${db.path}: give the --db the worker runs with`);
	const store = await openDaemonStore(db);
	try {
		const deliveries = (await store.forwards())
			.map(deliveryOf)
			.filter((d): d is Delivery => d !== undefined)
			.filter((d) => since === undefined || Date.parse(d.createdAt) >= since);
		if (action === 'list') {
			const shown = deliveries.filter((d) =>
				values.dead
					? d.state === 'dead'
					: values.failed
						? d.state === 'failed' || d.state === 'dead'
						: true,
			);
			if (values.json) process.stdout.write(`${JSON.stringify(shown)}\n`);
			else
				for (const d of shown)
					process.stdout.write(
						`${d.createdAt}  ${d.state.padEnd(9)} ${String(d.attempts).padStart(3)}  ${d.type.padEnd(17)} ${d.id}  ${d.url ?? d.destination}${d.lastError ? `  (${d.lastError})` : ''}\n`,
					);
			return 0;
		}
		const chosen = deliveries.filter(
			(d) =>
				(values['dead-only'] ? d.state === 'dead' : d.state === 'dead' || d.state === 'failed') &&
				(values.type === undefined || d.type === values.type) &&
				(values.destination === undefined ||
					d.url === values.destination ||
					d.destination.includes(values.destination)),
		);
		const replayed = await store.replayForwards(
			chosen.map((d) => d.forward),
			Date.now(),
		);
		if (values.json)
			process.stdout.write(`${JSON.stringify({ replayed, ids: chosen.map((d) => d.id) })}\n`);
		else
			process.stdout.write(
				`${replayed} deliveries put back in line under their own webhook-id; the running worker sends them within 30 s (or the next one to start on this database)\n`,
			);
		return 0;
	} finally {
		await store.close();
	}
}
