import Fastify, { type FastifyInstance } from 'fastify';
import type { SandboxDeps } from './deps';
import { clientErrorHandler } from './http/clientErrors';
import { frameworkErrors, installErrorHandling } from './http/errorHandling';
import { KnownRoutes } from './http/knownRoutes';
import { registerV2 } from './routes/v2';
import { registerControl } from './routes/control';

/** The sandbox's HTTP face: the provider's /v2 interface and the /_sandbox control API. */
export function buildApp(deps: SandboxDeps, logger: boolean): FastifyInstance {
	const app = Fastify({
		logger: logger ? { level: 'info' } : false,
		bodyLimit: deps.options.bodyLimit,
		routerOptions: { ignoreTrailingSlash: true },
		forceCloseConnections: true,
		frameworkErrors,
		clientErrorHandler,
	});
	app.removeAllContentTypeParsers();
	// Fastify's parser refuses __proto__ and constructor.prototype keys; an empty body
	// (a DELETE sent with a JSON content type, say) is simply no body.
	const json = app.getDefaultJsonParser('error', 'error');
	app.addContentTypeParser(
		['application/json', 'application/merge-patch+json'],
		{ parseAs: 'string' },
		(request, body, done) => {
			if (body === '') return done(null, undefined);
			json(request, body as string, done);
		},
	);
	const known = new KnownRoutes();
	known.watch(app);
	installErrorHandling(app, known);
	app.register(async (v2) => registerV2(v2, deps), { prefix: '/v2' });
	app.register(async (control) => registerControl(control, deps), { prefix: '/_sandbox' });
	return app;
}
