import { senderKind } from '../../../api';

/** The rule the warning names: the register Australia's carriers check alphanumeric senders against. */
export const AU_SENDER_ID_RULE =
	'Australia\'s SMS Sender ID Register: from 1 July 2026, messages from an alphanumeric sender ID that is not registered show as "Unverified"';

/** A dry run's warning that an alphanumeric `--from` goes to Australian numbers unregistered. */
export interface SenderIdWarning {
	from: string;
	country: 'AU';
	/** Valid messages to Australian numbers. */
	messages: number;
	rule: string;
	message: string;
}

/**
 * Sender IDs are matched without regard to case or surrounding spaces: the register is of
 * the ID a phone shows, and carriers do not tell "BondiDeals" from "BONDIDEALS".
 */
function sameId(a: string, b: string): boolean {
	return a.trim().toUpperCase() === b.trim().toUpperCase();
}

/**
 * The warning for `from` when it is alphanumeric, some messages go to Australia (by the
 * forecast's countries) and it is not in `registered` (`--registered-sender-ids`, or the
 * worker's `senderIds.registered`); undefined otherwise.
 */
export function unregisteredSenderId(
	from: string | undefined,
	registered: readonly string[] | undefined,
	countries: readonly { country: string; messages: number }[],
): SenderIdWarning | undefined {
	if (from === undefined || senderKind(from) !== 'alphanumeric') return undefined;
	const messages = countries.find((c) => c.country === 'AU')?.messages ?? 0;
	if (messages === 0 || (registered ?? []).some((id) => sameId(id, from))) return undefined;
	return {
		from,
		country: 'AU',
		messages,
		rule: AU_SENDER_ID_RULE,
		message: `sender ID "${from}" goes to ${messages} Australian number${messages === 1 ? '' : 's'} and is not listed as registered (--registered-sender-ids, or senderIds.registered in the worker's config): ${AU_SENDER_ID_RULE}`,
	};
}
