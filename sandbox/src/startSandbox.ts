import type { AddressInfo } from 'node:net';
import { buildApp } from './app';
import { createDeps } from './deps';
import type { RunningSandbox, SandboxOptions } from './options';
import { createAccount, createProperty } from './state/accounts';

/** Starts a sandbox with a ready demo account and property. */
export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
	const deps = createDeps(options);
	const account = createAccount(deps.store);
	const property = createProperty(deps.store, account.AccountSid, { Name: 'Demo property' });
	const app = buildApp(deps, options.logger ?? false);
	deps.lifecycle.start();
	await app.listen({ port: options.port ?? 4010, host: options.host ?? '127.0.0.1' });
	const { port } = app.server.address() as AddressInfo;
	const host = options.host ?? '127.0.0.1';
	const shownHost =
		host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
	return {
		url: `http://${shownHost}:${port}`,
		port,
		demo: {
			AccountSid: account.AccountSid,
			AuthToken: account.AuthToken,
			PropertySid: property.PropertySid,
		},
		async close() {
			deps.lifecycle.stop();
			await deps.dispatcher.close();
			await app.close();
		},
	};
}
