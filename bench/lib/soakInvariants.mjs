// The soak's verdict: issue 33's invariants, each judged from what the provider, the
// mailbox and the ledger hold at the end, not from the workers' own logs.

/** The first answered 2xx attempt of each callback, by MessageSid and kind. */
function acknowledged(callbacks, kind) {
	const out = new Map();
	for (const c of callbacks)
		if (c.Kind === kind && c.Delivered && !out.has(c.MessageSid)) out.set(c.MessageSid, c);
	return out;
}

/**
 * @param {object} s
 * @param {object[]} s.callbacks  the sandbox outbox's callback attempts
 * @param {object[]} s.messages   every message the sandbox holds (AcceptedAt in ms)
 * @param {{messageId: string, sid: string, at: number}[]} s.mails  the mailbox
 * @param {{kind: string, at: number}[]} s.faults  each fault and when it began
 * @param {Map<string, number>} s.acknowledgedAt  MessageSid -> ms the balancer saw its 2xx
 * @param {Map<string, number>} s.stops  STOP MessageSid -> the CSV row of its number
 * @param {string[]} s.replies  MessageSids of the other replies
 * @param {Record<string, number>} s.statuses  ledger rows by status
 * @param {{line: number, message_sid: string, status: string}[]} s.deliveries  the ledger's receipts
 */
/** A list as a count and its first few, so that a thousand misses stay one readable line. */
const some = (list) => ({ count: list.length, first: list.slice(0, 10) });

/** Callbacks of a kind the provider gave up on: no attempt answered 2xx (not acknowledged, so no promise). */
function givenUp(callbacks, kind, acked) {
	return new Set(
		callbacks.filter((c) => c.Kind === kind && !acked.has(c.MessageSid)).map((c) => c.MessageSid),
	).size;
}

export function soakInvariants(s) {
	const byRow = new Map();
	for (const m of s.messages)
		if (String(m.ExternalId).startsWith('soak:'))
			byRow.set(m.ExternalId, [...(byRow.get(m.ExternalId) ?? []), m]);

	const duplicates = [...byRow.entries()].filter(([, ms]) => ms.length > 1).map(([id]) => id);
	const lost = (s.statuses.pending ?? 0) + (s.statuses.submitting ?? 0);

	// A STOP is honoured when no message of the run to its number was accepted by the
	// provider after the STOP's 200, to the millisecond (the balancer's clock and the
	// sandbox's are this machine's).
	const replyAcks = acknowledged(s.callbacks, 'Reply');
	const stopsBroken = [];
	let stopsAcknowledged = 0;
	let closestMs;
	for (const [sid, row] of s.stops) {
		const attempt = replyAcks.get(sid);
		if (!attempt) continue;
		stopsAcknowledged++;
		const ackAt = s.acknowledgedAt.get(sid) ?? attempt.At;
		for (const m of byRow.get(`soak:${row + 2}`) ?? []) {
			if (m.AcceptedAt > ackAt)
				stopsBroken.push({
					row: row + 2,
					ackAt,
					acceptedAt: m.AcceptedAt,
					lateMs: m.AcceptedAt - ackAt,
				});
			else closestMs = Math.min(closestMs ?? Infinity, ackAt - m.AcceptedAt);
		}
	}

	// Mailed once: one Message-ID per reply. The same Message-ID twice is one mail to a mail
	// system (an attempt cut off after the server took it goes again under it), so copies are
	// counted apart; a second Message-ID for one reply is a second mail.
	const idsBySid = new Map();
	const copies = [];
	const firstAt = new Map();
	for (const mail of s.mails) {
		if (firstAt.has(mail.messageId)) {
			// The last fault begun before the copy arrived: the cut-off attempt's likely cause.
			const cause = s.faults.findLast((f) => f.at <= mail.at);
			copies.push({
				apartMs: mail.at - firstAt.get(mail.messageId),
				after: cause ? `${cause.kind} ${mail.at - cause.at} ms before` : 'no fault',
			});
		} else firstAt.set(mail.messageId, mail.at);
		idsBySid.set(mail.sid, (idsBySid.get(mail.sid) ?? new Set()).add(mail.messageId));
	}
	const repliesAcked = s.replies.filter((sid) => replyAcks.has(sid));
	const notMailed = repliesAcked.filter((sid) => !idsBySid.has(sid));
	const mailedTwice = repliesAcked.filter((sid) => (idsBySid.get(sid)?.size ?? 0) > 1);

	// Settled: the ledger holds the receipt on the row its message was sent for.
	const settled = new Map(s.deliveries.map((d) => [d.message_sid, d]));
	const receiptAcked = acknowledged(s.callbacks, 'DeliveryReceipt');
	const receiptAcks = [...receiptAcked.values()].filter((c) =>
		String(c.Payload.ExternalId).startsWith('soak:'),
	);
	const unsettled = receiptAcks
		.filter((c) => {
			const d = settled.get(c.MessageSid);
			return (
				!d ||
				`soak:${d.line}` !== c.Payload.ExternalId ||
				String(d.status).toLowerCase() !== String(c.Payload.Status).toLowerCase()
			);
		})
		.map((c) => c.Payload.ExternalId);

	return [
		{ invariant: 'the run accounted for every row', ok: s.runDone, rows: s.statuses },
		{
			invariant: 'no duplicate',
			ok: duplicates.length === 0,
			messages: byRow.size,
			duplicates: some(duplicates),
		},
		{ invariant: 'nothing lost', ok: lost === 0, lost },
		{
			invariant: 'every acknowledged STOP honoured (ms)',
			ok: stopsBroken.length === 0,
			acknowledged: stopsAcknowledged,
			notAcknowledged: s.stops.size - stopsAcknowledged,
			broken: some(stopsBroken),
			closestSendBeforeAckMs: closestMs ?? null,
		},
		{
			invariant: 'every acknowledged reply mailed once',
			ok: notMailed.length === 0 && mailedTwice.length === 0,
			acknowledged: repliesAcked.length,
			notAcknowledged: s.replies.length - repliesAcked.length,
			mails: s.mails.length,
			notMailed: some(notMailed),
			mailedTwice: some(mailedTwice),
			copiesUnderOneMessageId: some(copies),
		},
		{
			invariant: 'every acknowledged receipt settled',
			ok: unsettled.length === 0,
			acknowledged: receiptAcks.length,
			notAcknowledged: givenUp(s.callbacks, 'DeliveryReceipt', receiptAcked),
			unsettled: some(unsettled),
		},
		{ invariant: 'every worker alive', ok: s.alive === s.workers, alive: s.alive, of: s.workers },
	];
}
