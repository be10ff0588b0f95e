import type { Ledger } from '../../storage/ledger';
import type { Logger } from '../jsonLogger';

const LOOK_EVERY_MS = 100;

/**
 * The campaign engine's ledger, made to wait before it takes rows to send while `mayGo`
 * says no: callbacks spooled during an outage are not yet in the store and processed, and
 * a STOP among them must count before the next message to its number.
 */
export function gatedLedger<L extends Ledger>(
	ledger: L,
	mayGo: () => boolean,
	log: Logger,
	signal: AbortSignal,
): L {
	let told = false;
	const wait = async () => {
		while (!mayGo() && !signal.aborted) {
			if (!told)
				log.warn(
					'sending waits: callbacks received while the store was down are being taken in first',
				);
			told = true;
			await new Promise((r) => setTimeout(r, LOOK_EVERY_MS));
		}
		if (told) log.info('sending goes on: the spooled callbacks are processed');
		told = false;
	};
	const gated = new Set(['peekPending', 'claimChunk']);
	return new Proxy(ledger, {
		get(target, property, receiver) {
			const value: unknown = Reflect.get(target, property, receiver);
			if (typeof value !== 'function') return value;
			if (!gated.has(String(property))) return value.bind(target);
			return async (...args: unknown[]) => {
				await wait();
				return (value as (...a: unknown[]) => unknown).apply(target, args);
			};
		},
	});
}
