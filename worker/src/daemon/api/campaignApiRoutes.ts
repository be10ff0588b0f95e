import { MAX_JSON_DEPTH, nestsDeeperThan } from './jsonDepth';
import { withoutServerPaths } from './serverPaths';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { routeErrors } from '../http/httpErrorHandler';
import type { Logger } from '../jsonLogger';
import type { ApiCampaigns } from './apiCampaigns';
import { ApiError } from './apiError';
import { API_ROUTES, SMALL_BODY_BYTES, type ApiRoute } from './apiRouteTable';
import { settingsBody, startBody } from './apiSchemas';
import { openApiDocument } from './openApiDocument';
import { parsePageBody } from './pageBodyParse';
import { parse } from './requestParse';

export interface CampaignApiRoutesOptions {
	campaigns: ApiCampaigns;
	/** The largest CSV one upload may be. */
	maxCsvBytes: number;
	log: Logger;
	/** Where the campaigns' CSVs are: a path in it is never shown to a caller. */
	dir: string;
}

type Handler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

const name = (request: FastifyRequest) => (request.params as { name: string }).name;
const price = (request: FastifyRequest) =>
	(request.query as { pricePerSegment?: number }).pricePerSegment;

/** A fastify refusal of a request (by its code) in the API's own terms; undefined: a fault of ours. */
function refusalOf(error: FastifyError): ApiError | undefined {
	switch (error.code) {
		case 'FST_ERR_CTP_BODY_TOO_LARGE':
			return new ApiError(
				'too_large',
				'the body is larger than this route takes (see the limits in worker/README.md)',
			);
		case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
			return new ApiError(
				'unsupported_media_type',
				`${error.message}: send application/json (text/csv for /csv)`,
			);
		case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
			return new ApiError('invalid', 'the body is not as long as its Content-Length says', {
				field: 'body',
			});
	}
	if (error.statusCode === 400) return new ApiError('invalid', error.message, { field: 'body' });
	return undefined;
}

/**
 * The campaign API as a fastify plugin, mounted by the worker's server under `/api` behind
 * the API token (http/apiRoutes.ts). Its routes are API_ROUTES; its refusals are
 * `{"error": {...}}` with the codes of api/workerApi.
 */
export async function campaignApiRoutes(
	app: FastifyInstance,
	options: CampaignApiRoutesOptions,
): Promise<void> {
	const { campaigns } = options;

	// JSON as the rest of the worker reads it, but an empty body is no body (a POST .../pause from a client that sets the type anyway).
	app.removeContentTypeParser('application/json');
	app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
		const text = body as string;
		if (text.trim() === '') return done(null, undefined);
		if (nestsDeeperThan(text, MAX_JSON_DEPTH))
			return done(
				new ApiError(
					'invalid',
					`the body nests objects and arrays more than ${MAX_JSON_DEPTH} deep: a page is {"recipients": [{column: value}]}`,
					{ field: 'body' },
				),
				undefined,
			);
		try {
			done(null, JSON.parse(text));
		} catch (error) {
			done(
				new ApiError('invalid', `the body is not JSON: ${(error as Error).message}`, {
					field: 'body',
				}),
				undefined,
			);
		}
	});
	// The CSV is handed on as the stream it is: written to disk as it comes, never held whole.
	app.addContentTypeParser(
		['text/csv', 'application/csv', 'text/plain'],
		(_request, payload, done) => done(null, payload),
	);

	routeErrors(app, {
		log: options.log,
		errorLine: 'campaign API error',
		fastifyRefusal: refusalOf,
		logFields: (request) => ({ method: request.method, url: request.url.replace(/\?.*$/, '') }),
		// Its message names the recipients, never where the worker keeps them.
		coded: { scrub: (json) => withoutServerPaths(json, options.dir) },
		internal: new ApiError('internal', 'the worker failed to answer; its log has the detail'),
	});

	const handlers: Record<ApiRoute['id'], Handler> = {
		openapi: async () => openApiDocument(),
		listCampaigns: async () => campaigns.list(),
		getCampaign: async (request) => ({ campaign: await campaigns.get(name(request)) }),
		deleteCampaign: async (request) => campaigns.delete(name(request)),
		putCampaign: async (request, reply) => {
			const body = parse(settingsBody, request.body ?? {}, 'body');
			const { created, campaign } = await campaigns.put(name(request), body);
			return reply.code(created ? 201 : 200).send({ campaign });
		},
		putPage: async (request) =>
			campaigns.putPage(
				name(request),
				(request.params as { page: string }).page,
				parsePageBody(request.body),
			),
		putCsv: async (request) => {
			const declared = Number(request.headers['content-length']);
			if (Number.isFinite(declared) && declared > options.maxCsvBytes) {
				throw new ApiError(
					'too_large',
					`the CSV is larger than ${options.maxCsvBytes.toLocaleString('en-US')} bytes, this worker's limit for one upload (server.apiMaxCsvBytes); send the recipients as JSON pages instead`,
				);
			}
			if (!request.body)
				throw new ApiError('unsupported_media_type', 'a CSV goes as Content-Type: text/csv');
			return campaigns.putCsv(name(request), request.body as Readable, options.maxCsvBytes);
		},
		startCampaign: async (request, reply) => {
			const body = parse(startBody, request.body ?? {}, 'body');
			const { started, campaign } = await campaigns.start(name(request), body);
			return reply.code(started ? 202 : 200).send({ campaign });
		},
		pauseCampaign: async (request) => ({ campaign: await campaigns.pause(name(request)) }),
		resumeCampaign: async (request) => ({ campaign: await campaigns.resume(name(request)) }),
		cancelCampaign: async (request) => ({ campaign: await campaigns.cancel(name(request)) }),
		getReport: async (request) =>
			campaigns.report(
				name(request),
				price(request),
				request.query as { notSentLimit?: number; notSentAfter?: number },
			),
		getEvidence: async (request) => campaigns.evidence(name(request)),
		getPreview: async (request) => campaigns.preview(name(request), price(request)),
	};

	for (const route of API_ROUTES) {
		const handler = handlers[route.id];
		app.route({
			method: route.method,
			url: route.path,
			bodyLimit: route.bodyLimit ?? SMALL_BODY_BYTES,
			handler: async (request, reply) => {
				if (route.params) request.params = parse(route.params, request.params, 'path');
				if (route.query) request.query = parse(route.query, request.query, 'query');
				if (
					!route.csv &&
					request.body !== undefined &&
					request.headers['content-type'] !== undefined &&
					!/^application\/json\b/i.test(request.headers['content-type'])
				) {
					throw new ApiError(
						'unsupported_media_type',
						`send application/json, not ${request.headers['content-type']}`,
					);
				}
				if (
					route.csv &&
					request.headers['content-type'] !== undefined &&
					!/^(text\/csv|application\/csv|text\/plain)\b/i.test(request.headers['content-type'])
				) {
					throw new ApiError(
						'unsupported_media_type',
						`send the CSV as text/csv, not ${request.headers['content-type']}`,
					);
				}
				const answer = await handler(request, reply);
				return reply.sent ? reply : reply.header('cache-control', 'no-store').send(answer);
			},
		});
	}
}
