import type { FastifyInstance } from 'fastify';
import {
	applyMergePatch,
	ErrorCodes,
	isMergePatchContentType,
	validateUpdateProperty,
} from '../../../api';
import type { SandboxDeps } from '../deps';
import { fail, invalid, notFound } from '../http/apiError';

export function registerProperties(app: FastifyInstance, { store }: SandboxDeps): void {
	app.patch<{ Params: { PropertySid: string } }>(
		'/Properties/:PropertySid',
		async (request, reply) => {
			const property = store.ownProperty(request.account.AccountSid, request.params.PropertySid);
			if (!property) throw notFound(`Property ${request.params.PropertySid}`);
			if (!isMergePatchContentType(request.headers['content-type'])) {
				throw fail(
					400,
					ErrorCodes.UnsupportedMediaType,
					'A partial update needs Content-Type: application/merge-patch+json.',
				);
			}
			const violations = validateUpdateProperty(request.body);
			if (violations.length > 0) throw invalid(violations);
			store.properties.set(property.PropertySid, applyMergePatch(property, request.body));
			reply.code(204).send();
		},
	);
}
