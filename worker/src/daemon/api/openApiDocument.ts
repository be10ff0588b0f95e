import { z } from 'zod';
import { WORKER_API_ERROR_STATUS, WORKER_API_PREFIX } from '../../../../api';
import { API_ROUTES } from './apiRouteTable';
import { errorAnswer } from './apiSchemas';

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
	const s = z.toJSONSchema(schema, {
		target: 'draft-2020-12',
		io,
		unrepresentable: 'any',
	}) as Record<string, unknown>;
	delete s.$schema;
	return s;
}

/** `/campaigns/:name` as OpenAPI's `/api/campaigns/{name}`. */
export function openApiPath(path: string): string {
	return WORKER_API_PREFIX + path.replace(/:([A-Za-z]+)/g, '{$1}');
}

/** The API's own version: changes stay additive within it (api/workerApi). */
const API_VERSION = '1.0.0';

let built: Record<string, unknown> | undefined;

/** The OpenAPI 3.1 document of every route of API_ROUTES, generated from their zod schemas. */
export function openApiDocument(): Record<string, unknown> {
	if (built) return built;
	const paths: Record<string, Record<string, unknown>> = {};
	for (const route of API_ROUTES) {
		const parameters: unknown[] = [];
		for (const [where, schema] of [
			['path', route.params],
			['query', route.query],
		] as const) {
			if (!schema) continue;
			for (const [name, field] of Object.entries(schema.shape)) {
				parameters.push({
					name,
					in: where,
					required: where === 'path',
					description: (field as z.ZodType).description,
					schema: jsonSchema(field as z.ZodType, 'input'),
				});
			}
		}
		const responses: Record<string, unknown> = {};
		for (const [status, answer] of Object.entries(route.answers)) {
			responses[status] = {
				description: answer.description,
				...(answer.schema
					? { content: { 'application/json': { schema: jsonSchema(answer.schema, 'output') } } }
					: {}),
			};
		}
		for (const code of ['unauthorized', ...route.errors] as const) {
			const status = String(WORKER_API_ERROR_STATUS[code]);
			const existing = responses[status] as { description: string } | undefined;
			responses[status] = {
				description: existing ? `${existing.description}; ${code}` : code,
				content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
			};
		}
		const body = route.csv
			? { required: true, content: { 'text/csv': { schema: { type: 'string' } } } }
			: route.body
				? {
						required: route.id !== 'startCampaign',
						content: { 'application/json': { schema: jsonSchema(route.body, 'input') } },
					}
				: undefined;
		(paths[openApiPath(route.path)] ??= {})[route.method.toLowerCase()] = {
			operationId: route.id,
			summary: route.summary,
			...(parameters.length > 0 ? { parameters } : {}),
			...(body ? { requestBody: body } : {}),
			responses,
		};
	}
	built = {
		openapi: '3.1.0',
		info: {
			title: 'cloudtel worker campaign API',
			version: API_VERSION,
			description:
				'Campaigns handed to a running `cloudtel worker`: settings, recipients in pages (or a CSV), start, pause, resume, cancel, status, report and preview. Every route needs `Authorization: Bearer <server.apiToken>`.',
		},
		components: {
			securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
			schemas: { Error: jsonSchema(errorAnswer, 'output') },
		},
		security: [{ bearer: [] }],
		paths,
	};
	return built;
}
