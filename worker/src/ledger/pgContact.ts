import type { Pool } from 'pg';
import { transaction } from '../storage/postgres/pgDatabase';
import { forgottenKey, inTimeOrder, type ContactEvent, type ContactHistory, type ForgetResult } from './contact';

/** Every row, receipt, reply and consent change of one number, across the campaigns of a Postgres ledger. */
export async function pgContactHistory(pool: Pool, number: string): Promise<ContactHistory> {
	const events: ContactEvent[] = [];
	const rows = await pool.query<{ campaign: string; line: number; status: string; text: string | null; message_sid: string | null; sent_at: number | null; attempted_at: number | null; message: string | null }>(
		`SELECT campaign, line, status, text, message_sid, sent_at, attempted_at, message FROM recipients WHERE to_number = $1`,
		[number],
	);
	for (const r of rows.rows) events.push({ at: r.sent_at ?? r.attempted_at ?? undefined, kind: 'message', campaign: r.campaign, line: r.line, status: r.status, text: r.text ?? undefined, messageSid: r.message_sid ?? undefined, detail: r.message ?? undefined });
	const deliveries = await pool.query<{ campaign: string; line: number; message_sid: string; status: string; error_code: string | null; at: number; received_at: number | null }>(
		`SELECT d.campaign, d.line, d.message_sid, d.status, d.error_code, d.at, d.received_at FROM deliveries d JOIN recipients r ON r.campaign = d.campaign AND r.line = d.line WHERE r.to_number = $1`,
		[number],
	);
	for (const d of deliveries.rows) events.push({ at: d.received_at ?? d.at * 1000, kind: 'receipt', campaign: d.campaign, line: d.line, status: d.status, messageSid: d.message_sid, detail: d.error_code ?? undefined });
	const replies = await pool.query<{ campaign: string; line: number; message_sid: string; at: number; opt_out: boolean }>(
		`SELECT p.campaign, p.line, p.message_sid, p.at, p.opt_out FROM replies p JOIN recipients r ON r.campaign = p.campaign AND r.line = p.line WHERE r.to_number = $1`,
		[number],
	);
	for (const p of replies.rows) events.push({ at: p.at, kind: 'reply', campaign: p.campaign, line: p.line, messageSid: p.message_sid, detail: p.opt_out ? 'opted out' : undefined });
	const consent = await pool.query<{ at: number; kind: 'opt-out' | 'opt-in'; reason: string }>(`SELECT at, kind, reason FROM consent_events WHERE number = $1`, [number]);
	for (const c of consent.rows) events.push({ at: c.at, kind: c.kind, detail: c.reason });
	const s = (await pool.query<{ reason: string; created_at: number }>(`SELECT reason, created_at FROM suppressions WHERE number = $1`, [number])).rows[0];
	return { number, suppressed: s ? { reason: s.reason, since: s.created_at } : undefined, events: inTimeOrder(events) };
}

/** Erases a number from a Postgres ledger, in one transaction; its suppression stays, under its hash. */
export async function pgForgetContact(pool: Pool, number: string): Promise<ForgetResult> {
	return transaction(pool, async (db) => {
		const rows = (await db.query<{ campaign: string; line: number }>(`SELECT campaign, line FROM recipients WHERE to_number = $1 FOR UPDATE`, [number])).rows;
		const campaigns = rows.map((r) => r.campaign);
		const lines = rows.map((r) => r.line);
		for (const table of ['deliveries', 'replies', 'recipients']) {
			await db.query(`DELETE FROM ${table} t USING unnest($1::text[], $2::int[]) AS x(campaign, line) WHERE t.campaign = x.campaign AND t.line = x.line`, [campaigns, lines]);
		}
		const key = forgottenKey(number);
		await db.query(`DELETE FROM suppressions WHERE number = $1 AND EXISTS (SELECT 1 FROM suppressions WHERE number = $2)`, [key, number]);
		const kept = ((await db.query(`UPDATE suppressions SET number = $1 WHERE number = $2`, [key, number])).rowCount ?? 0) > 0;
		await db.query(`UPDATE consent_events SET number = $1 WHERE number = $2`, [key, number]);
		let callbacks = 0;
		for (const table of ['callback_events', 'forwards']) callbacks += (await db.query(`DELETE FROM ${table} WHERE strpos(payload, $1) > 0`, [JSON.stringify(number).slice(1, -1)])).rowCount ?? 0;
		return { rows: rows.length, campaigns: [...new Set(campaigns)].sort(), suppressionKept: kept, callbacks };
	});
}
