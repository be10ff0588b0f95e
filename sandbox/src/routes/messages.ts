import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
	batchErrorItem,
	ErrorCodes,
	validateBatchEnvelope,
	validateSendMessage,
	type SendMessageRequest,
} from '../../../api';
import type { SandboxDeps } from '../deps';
import { ApiError, fail, invalid, notFound } from '../http/apiError';
import { acceptMessage, publicMessage } from '../messaging/acceptMessage';
import type { PropertyRecord } from '../state/records';

type Params = { PropertySid: string };

export function registerMessages(app: FastifyInstance, deps: SandboxDeps): void {
	const { store, clock, leases, lifecycle, limiter } = deps;

	/** The property the path names, ready to send: owned, SMS-enabled and Active. */
	function sendingProperty(
		request: FastifyRequest<{ Params: Params }>,
		messages: number,
	): PropertyRecord {
		const account = request.account;
		const property = store.ownProperty(account.AccountSid, request.params.PropertySid);
		if (!property) throw notFound(`Property ${request.params.PropertySid}`);
		const wait = limiter.take(account.AccountSid, messages);
		if (wait !== undefined) {
			throw new ApiError(
				429,
				{
					ErrorCode: ErrorCodes.RateLimited,
					Message: `Rate limit exceeded: retry after ${wait} s.`,
					Errors: [],
				},
				{ 'retry-after': String(wait) },
			);
		}
		if (!account.SmsEnabled)
			throw fail(
				400,
				ErrorCodes.SmsNotEnabled,
				'SMS is not enabled for this account; ask client services to enable it.',
			);
		if (!property.SmsEnabled)
			throw fail(
				400,
				ErrorCodes.SmsNotEnabled,
				'SMS is not enabled for this property; set SmsEnabled with a property update.',
			);
		if (!property.Active)
			throw fail(
				400,
				ErrorCodes.PropertyInactive,
				'This property is not Active; set Active with a property update.',
			);
		return property;
	}

	app.post<{ Params: Params }>('/Properties/:PropertySid/Messages', async (request) => {
		const property = sendingProperty(request, 1);
		const now = clock.now();
		const violations = validateSendMessage(request.body, { now });
		if (violations.length > 0) throw invalid(violations);
		const message = acceptMessage(store, leases, property, request.body as SendMessageRequest, now);
		lifecycle.admit(message);
		return { Message: publicMessage(message) };
	});

	app.post<{ Params: Params }>('/Properties/:PropertySid/BatchMessages', async (request) => {
		const envelope = validateBatchEnvelope(request.body);
		if (envelope) {
			if (!store.ownProperty(request.account.AccountSid, request.params.PropertySid))
				throw notFound(`Property ${request.params.PropertySid}`);
			throw new ApiError(400, envelope);
		}
		const elements = (request.body as { Messages: unknown[] }).Messages;
		const property = sendingProperty(request, elements.length);
		const now = clock.now();
		// 200 whatever the elements hold: each answers for itself, in request order.
		return elements.map((element) => {
			const violations = validateSendMessage(element, { now });
			if (violations.length > 0) return batchErrorItem(violations);
			const message = acceptMessage(store, leases, property, element as SendMessageRequest, now);
			lifecycle.admit(message);
			return publicMessage(message);
		});
	});
}
