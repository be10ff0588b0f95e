import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { TOKEN_PATTERN } from '../../rows/linkRewrite';
import type { LinkClickEvent } from '../../storage/daemonStore';
import type { LinkTarget } from '../../storage/linkStore';
import type { Logger } from '../jsonLogger';
import { isPreviewAgent } from './previewAgents';

export interface LinkRouteOptions {
	/** The link base's path: `''` for a domain of its own, `/l` for `{publicUrl}/l`. */
	path: string;
	/** A link older than this answers 410. */
	ttlMs: number;
	target(token: string): Promise<LinkTarget | undefined>;
	/** The callback intake (durable when it resolves, store or spool): it kicks the processor. */
	store(key: string, event: LinkClickEvent, receivedAt: number): Promise<boolean>;
	log: Logger;
}

/** Plain pages: an unknown and an expired link say nothing of whose they were or where they led. */
const PAGE_HEADERS = {
	'content-type': 'text/plain; charset=utf-8',
	'cache-control': 'no-store',
	'x-content-type-options': 'nosniff',
};

/**
 * `GET|HEAD {path}/{token}`: a tracked link, answered 302 to the URL stored for it, without
 * authentication. Only a stored URL is ever a Location (no open redirect). The request is
 * kept as a click (a HEAD or a preview's user agent as a prefetch) through the callback
 * intake as the answer leaves, so a store that is down spools it rather than lose it.
 */
export function linkRoutes(options: LinkRouteOptions) {
	return async (app: FastifyInstance): Promise<void> => {
		const handle = async (
			request: FastifyRequest<{ Params: { token: string } }>,
			reply: FastifyReply,
		) => {
			const token = request.params.token;
			const page = (status: number, text: string) =>
				reply.code(status).headers(PAGE_HEADERS).send(`${text}\n`);
			if (!TOKEN_PATTERN.test(token)) return page(404, 'Not found');
			let target: LinkTarget | undefined;
			try {
				target = await options.target(token);
			} catch (error) {
				options.log.error('a tracked link could not be looked up', { error: error as Error });
				reply.header('retry-after', '5');
				return page(503, 'Try again in a moment');
			}
			const at = Date.now();
			if (!target) return page(404, 'Not found');
			if (at - target.createdAt > options.ttlMs) return page(410, 'This link has expired');
			const event: LinkClickEvent = {
				kind: 'click',
				data: {
					Token: token,
					At: at,
					Prefetch: request.method === 'HEAD' || isPreviewAgent(request.headers['user-agent']),
				},
			};
			// Answered at once: the click goes to the store (or the spool) meanwhile; a person is
			// not kept waiting on a commit, and gets where they were going either way.
			options
				.store(`click:${token}:${at}:${randomBytes(6).toString('base64url')}`, event, at)
				.catch((error: Error) =>
					options.log.error('a click was neither stored nor spooled', { error }),
				);
			return reply
				.code(302)
				.headers({
					location: asHeader(target.url),
					'cache-control': 'no-store',
					'referrer-policy': 'no-referrer',
				})
				.send();
		};
		app.get(`${options.path}/:token`, handle);
	};
}

/** A URL as a header may carry it: non-ASCII characters percent-encoded. */
function asHeader(url: string): string {
	try {
		return new URL(url).href;
	} catch {
		return encodeURI(url);
	}
}
