import type { FastifyInstance } from 'fastify';
import {
	checkE164,
	checkShape,
	checkText,
	checkWindowsTimeZone,
	ErrorCodes,
	isSid,
	MAX_PAGE_SIZE,
	violation,
	type ReceiptStatus,
	type Violation,
} from '../../../api';
import type { SandboxDeps } from '../deps';
import { fail, invalid, notFound } from '../http/apiError';
import { listPage } from '../http/listPage';
import { receiveReply, repliedTo, type Reply } from '../messaging/receiveReply';
import { createAccount, createProperty, type NewProperty } from '../state/accounts';

function check(violations: Violation[]): void {
	if (violations.length > 0) throw invalid(violations);
}

const REPLY_SHAPE = {
	From: { type: 'string', required: true, check: checkE164 },
	To: { type: 'string', required: true, check: checkE164 },
	Text: { type: 'string', required: true, check: checkText },
} as const;

/** A burst's replies, each checked as a single reply is; violations name `Replies[i].Field`. */
function checkBurst(value: unknown): Reply[] {
	if (!Array.isArray(value) || value.length === 0 || value.length > MAX_BURST) {
		throw invalid([
			violation(
				'Replies',
				ErrorCodes.OutOfRange,
				`Replies must be an array of 1 to ${MAX_BURST} replies.`,
			),
		]);
	}
	check(
		value.flatMap((reply, i) =>
			checkShape(reply, REPLY_SHAPE).map((v) => ({
				...v,
				FieldName: v.FieldName ? `Replies[${i}].${v.FieldName}` : `Replies[${i}]`,
			})),
		),
	);
	return value as Reply[];
}

const MAX_BURST = 10_000;

/** The sandbox's own control API: no authentication, loopback only by default. */
export async function registerControl(app: FastifyInstance, deps: SandboxDeps): Promise<void> {
	const { store, clock, lifecycle, outbox, leases } = deps;

	app.get('/health', async () => ({ ok: true }));

	app.post('/accounts', async (request, reply) => {
		const body = request.body ?? {};
		check(checkShape(body, { SmsEnabled: { type: 'boolean' } }));
		const account = createAccount(store, (body as { SmsEnabled?: boolean }).SmsEnabled ?? true);
		reply.code(201);
		return { AccountSid: account.AccountSid, AuthToken: account.AuthToken };
	});

	app.post<{ Params: { AccountSid: string } }>(
		'/accounts/:AccountSid/properties',
		async (request, reply) => {
			if (!store.accounts.has(request.params.AccountSid))
				throw notFound(`Account ${request.params.AccountSid}`);
			const body = request.body ?? {};
			check(
				checkShape(body, {
					Name: { type: 'string' },
					SmsEnabled: { type: 'boolean' },
					Active: { type: 'boolean' },
					TimeZone: { type: 'string', check: checkWindowsTimeZone },
				}),
			);
			const property = createProperty(store, request.params.AccountSid, body as NewProperty);
			reply.code(201);
			return { PropertySid: property.PropertySid };
		},
	);

	app.get<{ Params: { PropertySid: string } }>('/properties/:PropertySid', async (request) => {
		const property = store.properties.get(request.params.PropertySid);
		if (!property) throw notFound(`Property ${request.params.PropertySid}`);
		return property;
	});

	app.post('/numbers', async (request, reply) => {
		check(
			checkShape(request.body, {
				AccountSid: { type: 'string', required: true },
				Number: { type: 'string', required: true, check: checkE164 },
				AddressSid: { type: 'string', required: true },
			}),
		);
		const body = request.body as { AccountSid: string; Number: string; AddressSid: string };
		if (!store.accounts.has(body.AccountSid)) throw notFound(`Account ${body.AccountSid}`);
		if (!store.ownAddress(body.AccountSid, body.AddressSid))
			throw notFound(`Address ${body.AddressSid} of that account`);
		if (store.numbers.has(body.Number))
			throw fail(400, ErrorCodes.InvalidValue, `${body.Number} is already registered.`, 'Number');
		store.numbers.set(body.Number, { ...body });
		reply.code(201);
		return { ...body };
	});

	app.delete<{ Params: { Number: string } }>('/numbers/:Number', async (request, reply) => {
		if (!store.numbers.delete(request.params.Number))
			throw notFound(`Number ${request.params.Number}`);
		reply.code(204).send();
	});

	// Paged as the provider's lists are, but 1000 to a page by default: most sandboxes fit
	// in one, and one of a million messages answers a page, not a hundred megabytes.
	app.get<{ Querystring: Record<string, unknown> & { AccountSid?: string; PropertySid?: string } }>(
		'/messages',
		async (request) => {
			const { AccountSid, PropertySid } = request.query;
			const matching = [];
			for (const m of store.messages.values()) {
				if (
					(!AccountSid || m.AccountSid === AccountSid) &&
					(!PropertySid || m.PropertySid === PropertySid)
				)
					matching.push(m);
			}
			const { page, TotalCount, NextPageToken } = listPage(matching, request.query, MAX_PAGE_SIZE);
			return { Messages: page, TotalCount, NextPageToken };
		},
	);

	// One reply, or a burst of them ({"Replies": [...]}) arriving at once, as a campaign's
	// recipients answer a few seconds after it lands. A burst is taken whole or not at all:
	// every reply is checked, and its lease found, before any is received.
	app.post('/replies', async (request) => {
		const body = request.body as { Replies?: unknown } | undefined;
		if (body && typeof body === 'object' && 'Replies' in body) {
			const replies = checkBurst(body.Replies);
			const leased = replies.map((r, i) => ({ r, i })).filter(({ r }) => !repliedTo(deps, r));
			if (leased.length > 0)
				throw notFound(
					`Replies[${leased[0].i}]: an active lease of ${leased[0].r.To} to ${leased[0].r.From}`,
				);
			return {
				MessageSids: replies.map(
					(r) => (receiveReply(deps, r) as { MessageSid: string }).MessageSid,
				),
			};
		}
		check(checkShape(request.body, REPLY_SHAPE));
		const inbound = receiveReply(deps, request.body as Reply);
		if (!inbound)
			throw notFound(
				`An active lease of ${(request.body as Reply).To} to ${(request.body as Reply).From}`,
			);
		return { MessageSid: inbound.MessageSid };
	});

	app.post('/receipts', async (request) => {
		check(
			checkShape(request.body, {
				MessageSid: {
					type: 'string',
					required: true,
					check: (f, v: string) =>
						isSid(v)
							? undefined
							: violation(f, ErrorCodes.InvalidSid, `${f} must be a MessageSid.`),
				},
				Status: {
					type: 'string',
					required: true,
					check: (f, v: string) =>
						v === 'Delivered' || v === 'Failed'
							? undefined
							: violation(f, ErrorCodes.OutOfRange, `${f} must be Delivered or Failed.`),
				},
				ErrorCode: { type: 'string' },
			}),
		);
		const body = request.body as { MessageSid: string; Status: ReceiptStatus; ErrorCode?: string };
		const message = store.messages.get(body.MessageSid);
		if (!message || message.Direction !== 'Outbound')
			throw notFound(`Outbound message ${body.MessageSid}`);
		lifecycle.settle(message, body.Status, body.ErrorCode);
		return { MessageSid: message.MessageSid, Status: message.Status };
	});

	app.get('/clock', async () => ({ Now: clock.now() }));

	app.post('/clock', async (request) => {
		check(
			checkShape(request.body, {
				AdvanceSeconds: {
					type: 'integer',
					required: true,
					check: (f, v: number) =>
						v >= 0
							? undefined
							: violation(
									f,
									ErrorCodes.OutOfRange,
									`${f} must be 0 or more: the clock only moves forward.`,
								),
				},
			}),
		);
		clock.advance((request.body as { AdvanceSeconds: number }).AdvanceSeconds);
		lifecycle.tick();
		return { Now: clock.now() };
	});

	app.get('/outbox', async () => ({
		Callbacks: outbox.callbacks,
		Sms: outbox.sms,
		Emails: outbox.emails,
	}));

	app.get('/leases', async () => ({ Leases: leases.all() }));
}
