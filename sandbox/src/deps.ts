import { CallbackDispatcher } from './callbacks/dispatcher';
import { Outbox } from './callbacks/outbox';
import { RateLimiter } from './http/rateLimiter';
import { LeasePool } from './messaging/leases';
import { Lifecycle } from './messaging/lifecycle';
import type { SandboxOptions } from './options';
import { Clock } from './state/clock';
import { Store } from './state/store';

/** Everything a route may touch, built once per sandbox. */
export interface SandboxDeps {
	store: Store;
	clock: Clock;
	leases: LeasePool;
	outbox: Outbox;
	dispatcher: CallbackDispatcher;
	lifecycle: Lifecycle;
	limiter: RateLimiter;
	options: Required<
		Pick<SandboxOptions, 'latencyMs' | 'failRate' | 'rateLimit' | 'receiptDelayMs' | 'bodyLimit'>
	>;
}

export function createDeps(options: SandboxOptions): SandboxDeps {
	const resolved = {
		latencyMs: options.latencyMs ?? 0,
		failRate: options.failRate ?? 0,
		rateLimit: options.rateLimit ?? 0,
		receiptDelayMs: options.receiptDelayMs ?? 200,
		bodyLimit: options.bodyLimit ?? 5 * 1024 * 1024,
	};
	const store = new Store();
	const clock = new Clock();
	const leases = new LeasePool();
	const outbox = new Outbox();
	const dispatcher = new CallbackDispatcher(outbox);
	const lifecycle = new Lifecycle(clock, leases, dispatcher, resolved.receiptDelayMs);
	return {
		store,
		clock,
		leases,
		outbox,
		dispatcher,
		lifecycle,
		limiter: new RateLimiter(resolved.rateLimit, () => clock.nowMs()),
		options: resolved,
	};
}
