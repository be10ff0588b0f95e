import type { FastifyInstance } from 'fastify';

/**
 * The methods each registered path answers, learnt from the routes themselves as they
 * are added, so a wrong method gets 405 with Allow rather than 404.
 */
export class KnownRoutes {
	private readonly routes: Array<{ pattern: RegExp; methods: Set<string> }> = [];

	/** Call before any route is registered. */
	watch(app: FastifyInstance): void {
		app.addHook('onRoute', (route) => {
			if (route.url.startsWith('/_sandbox') || route.url === '*') return;
			const methods = (Array.isArray(route.method) ? route.method : [route.method]).filter(
				(m) => m !== 'HEAD',
			);
			const source = route.url.replace(/\/+$/, '').replace(/:[^/]+/g, '[^/]+');
			const pattern = new RegExp(`^${source}/?$`, 'i');
			const known = this.routes.find((r) => r.pattern.source === pattern.source);
			if (known) methods.forEach((m) => known.methods.add(m));
			else this.routes.push({ pattern, methods: new Set(methods) });
		});
	}

	methodsFor(path: string): string[] {
		const route = this.routes.find((r) => r.pattern.test(path));
		return route ? [...route.methods].sort() : [];
	}
}
