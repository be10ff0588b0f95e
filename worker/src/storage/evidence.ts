/** What a campaign's evidence export says of one recipient (`cloudtel campaign evidence`). */
export interface EvidenceRow {
	line: number;
	number?: string;
	/** Where the number's consent came from and when, as first recorded. */
	consentSource?: string;
	/** Unix milliseconds. */
	consentAt?: number;
	status: string;
	/** The text as sent (or as it would have been). */
	text?: string;
	/** Unix milliseconds its request was handed to the provider (the answer that accepted it). */
	handedOverAt?: number;
	messageSid?: string;
	receiptStatus?: string;
	/** Unix milliseconds the receipt reported (its Timestamp). */
	receiptAt?: number;
	/** Unix milliseconds of each reply to this message. */
	replies: number[];
	/** The number's opt-out that followed this message: when its reply came, what it said, when the suppression was in force. */
	optOutAt?: number;
	optOutWord?: string;
	suppressedAt?: number;
	/** Unix milliseconds the opt-out's confirmation was sent, when one was. */
	confirmationAt?: number;
	/** True when this message was handed over while the number was opted out: the line the evidence exists to show is false. */
	sentAfterOptOut: boolean;
}

/** A consent event as the evidence reads it. */
export interface ConsentTrailEvent {
	at: number;
	kind: string;
	reason: string;
}

/** The word of an opt-out's recorded reason: `replied STOP` is STOP, `replied "remove me"` is remove me. */
export function optOutWord(reason: string): string {
	const m = /^replied (?:"([^"]*)"|(\S+))/.exec(reason);
	return m ? (m[1] ?? m[2]) : reason;
}

/**
 * A row's opt-out columns from its number's consent trail (in time order): the first
 * opt-out after the message was handed over (or after the reply that made it), and whether
 * the message left while an opt-out stood (no opt-in after it).
 */
export function optOutOf(
	trail: readonly ConsentTrailEvent[],
	sentAt: number | undefined,
	optOutReplyAt: number | undefined,
): Pick<
	EvidenceRow,
	'optOutAt' | 'optOutWord' | 'suppressedAt' | 'confirmationAt' | 'sentAfterOptOut'
> {
	let standing = false;
	if (sentAt !== undefined)
		for (const e of trail) {
			if (e.at > sentAt) break;
			if (e.kind === 'opt-out') standing = true;
			else if (e.kind === 'opt-in') standing = false;
		}
	const from = optOutReplyAt ?? sentAt ?? 0;
	const optOut = trail.find((e) => e.kind === 'opt-out' && e.at >= from);
	const confirmation = optOut && trail.find((e) => e.kind === 'confirmation' && e.at >= optOut.at);
	return {
		...(optOut
			? {
					optOutAt: optOutReplyAt ?? optOut.at,
					optOutWord: optOutWord(optOut.reason),
					suppressedAt: optOut.at,
				}
			: {}),
		...(confirmation ? { confirmationAt: confirmation.at } : {}),
		sentAfterOptOut: standing,
	};
}
