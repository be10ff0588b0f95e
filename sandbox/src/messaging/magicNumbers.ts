import type { ReceiptStatus } from '../../../api';

/**
 * Recipients whose delivery fails in the sandbox, so users can test their failure paths:
 * a To ending in 0666 fails as undeliverable, one ending in 0667 as an unknown subscriber.
 * Every other recipient is delivered.
 */
export const FAILING_SUFFIXES: Readonly<Record<string, string>> = {
	'0666': 'UNDELIVERABLE',
	'0667': 'UNKNOWN_SUBSCRIBER',
};

export function deliveryOutcome(to: string): { Status: ReceiptStatus; ErrorCode: string } {
	const code = FAILING_SUFFIXES[to.slice(-4)];
	return code ? { Status: 'Failed', ErrorCode: code } : { Status: 'Delivered', ErrorCode: '' };
}
