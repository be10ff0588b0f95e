import type { FastifyInstance } from 'fastify';
import { ErrorCodes } from '../../../api';
import type { SandboxDeps } from '../deps';
import { fail } from '../http/apiError';
import { authenticate } from '../http/auth';
import type { AccountRecord } from '../state/records';
import { registerAddresses } from './addresses';
import { registerMessages } from './messages';
import { registerOnlineLogins } from './onlineLogins';
import { registerProperties } from './properties';
import { registerSipTrunk } from './sipTrunk';

declare module 'fastify' {
	interface FastifyRequest {
		account: AccountRecord;
	}
}

/**
 * The provider's interface. Each request waits --latency-ms, may be failed by
 * --fail-rate before anything happens (so a 500 never half-processes), then must
 * authenticate.
 */
export async function registerV2(app: FastifyInstance, deps: SandboxDeps): Promise<void> {
	app.decorateRequest('account', undefined as unknown as AccountRecord);
	app.addHook('onRequest', async (request) => {
		const { latencyMs, failRate } = deps.options;
		if (latencyMs > 0) await new Promise((r) => setTimeout(r, latencyMs));
		if (failRate > 0 && Math.random() < failRate) {
			throw fail(
				500,
				ErrorCodes.InternalError,
				'Injected fault: the sandbox was started with --fail-rate.',
			);
		}
		request.account = authenticate(request.headers.authorization, deps.store);
	});
	registerOnlineLogins(app, deps);
	registerProperties(app, deps);
	registerMessages(app, deps);
	registerSipTrunk(app, deps);
	registerAddresses(app, deps);
}
