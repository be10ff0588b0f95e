import { z } from 'zod';
import {
	MAX_PRICE_PER_SEGMENT,
	CAMPAIGN_NAME_PATTERN,
	CAMPAIGN_STATES,
	isRecipient,
	MAX_BATCH_SIZE,
	MAX_PAGE_NUMBER,
	MAX_PAGE_RECIPIENTS,
	MAX_TEMPLATE_LENGTH,
	WORKER_API_ERROR_STATUS,
	type Recipient,
	type WorkerApiErrorCode,
} from '../../../../api';

/**
 * The campaign API's requests and answers as zod schemas: the routes check requests with
 * them (apiRoutes.ts) and the OpenAPI document is generated from them (openApiDocument.ts),
 * so the two cannot drift apart. The rules past shape (a Sid, a zone, a send window, a
 * recipient's values) are api/workerApi's, which the n8n node checks too.
 */
export const nameParams = z.strictObject({
	name: z
		.string()
		.regex(CAMPAIGN_NAME_PATTERN)
		.describe(
			'The campaign: 1 to 47 letters, digits, "_", "." or "-", starting with a letter or digit.',
		),
});

export const pageParams = nameParams.extend({
	page: z
		.string()
		.regex(/^[0-9]{1,6}$/)
		.describe(`The page number, 1 to ${MAX_PAGE_NUMBER}.`),
});

export const priceQuery = z.strictObject({
	pricePerSegment: z.coerce
		.number()
		.min(0)
		.max(MAX_PRICE_PER_SEGMENT)
		.optional()
		.describe("The price of one segment, for the cost (in your price's unit)."),
});

export const reportQuery = priceQuery.extend({
	notSentLimit: z.coerce
		.number()
		.int()
		.min(0)
		.max(1000)
		.optional()
		.describe(
			'List up to this many recipients not sent (invalid, rejected, uncertain) under notSent; 0 or absent: none.',
		),
	notSentAfter: z.coerce
		.number()
		.int()
		.min(0)
		.optional()
		.describe("The list's next page: the notSent.next of the page before."),
});

export const settingsBody = z
	.strictObject({
		property: z.string().describe('The Sid of the Property the messages go out on.'),
		text: z
			.string()
			.max(MAX_TEMPLATE_LENGTH)
			.describe('The message, a template over the recipients\' fields: "Hi {{first_name}}".'),
		from: z
			.string()
			.nullable()
			.optional()
			.describe(
				'An E.164 number or an alphanumeric ID of 1 to 11 characters; left out, a leased number.',
			),
		toColumn: z
			.string()
			.nullable()
			.optional()
			.describe(
				"The recipients' field holding the number; left out, the first of To, Phone or Mobile (any case).",
			),
		defaultCountry: z
			.string()
			.nullable()
			.optional()
			.describe('Two letters, for numbers written without their country code.'),
		timeZone: z
			.string()
			.nullable()
			.optional()
			.describe('IANA or Windows time zone of the send window.'),
		timeZoneColumn: z
			.string()
			.nullable()
			.optional()
			.describe("A recipients' field holding each one's time zone."),
		sendWindow: z
			.string()
			.nullable()
			.optional()
			.describe(
				'HH:MM-HH:MM, local hours messages may go out in; needs timeZone or timeZoneColumn.',
			),
		schedule: z
			.string()
			.nullable()
			.optional()
			.describe('ISO 8601 date and time with its offset to start sending at; left out, at start.'),
		rate: z
			.number()
			.min(0)
			.nullable()
			.optional()
			.describe('Messages a second: 0 for no limit, else at least 0.01 (default 100).'),
		batchSize: z
			.number()
			.int()
			.min(1)
			.max(MAX_BATCH_SIZE)
			.nullable()
			.optional()
			.describe('Messages per provider request (default 1,000).'),
		smartEncoding: z
			.boolean()
			.nullable()
			.optional()
			.describe('Typographic characters sent as their GSM-7 equivalents.'),
		countries: z
			.array(z.string())
			.nullable()
			.optional()
			.describe(
				'Send only to numbers of these countries (AU, NZ); others end invalid (COUNTRY_NOT_ALLOWED).',
			),
		allowLandlines: z
			.boolean()
			.nullable()
			.optional()
			.describe('Send to fixed-line-only numbers too (else invalid: NOT_MOBILE).'),
		maxCost: z
			.number()
			.min(0)
			.nullable()
			.optional()
			.describe(
				'Spend cap: the campaign pauses before a message would take its cost past it. Needs pricePerSegment.',
			),
		pricePerSegment: z
			.number()
			.min(0)
			.nullable()
			.optional()
			.describe('The price of one segment, for maxCost.'),
		variants: z
			.array(z.string().max(MAX_TEMPLATE_LENGTH))
			.max(4)
			.nullable()
			.optional()
			.describe(
				'Other texts tried against text on a share of the list; the rest goes with the winner.',
			),
		testShare: z
			.number()
			.nullable()
			.optional()
			.describe(
				"The share of the list in the variants' test, above 0 and at most 1 (default 0.2).",
			),
		winnerBy: z
			.enum(['delivered', 'replies', 'clicks', 'optouts'])
			.nullable()
			.optional()
			.describe('What makes a text the winner; optouts: the fewest (default replies).'),
		decideAfter: z
			.string()
			.nullable()
			.optional()
			.describe(
				"How long after the test's last send the winner is chosen: 2h, 30m, 90s (default 2h).",
			),
		trackLinks: z
			.boolean()
			.nullable()
			.optional()
			.describe(
				"Every http(s) URL of the text becomes a short link per recipient at the worker's links.baseUrl, its clicks counted.",
			),
		requireConsent: z
			.boolean()
			.nullable()
			.optional()
			.describe(
				'A recipient whose number has no consent, in its `consent` or recorded before, ends invalid (NO_CONSENT).',
			),
		maxFailureRate: z
			.number()
			.min(0)
			.max(1)
			.nullable()
			.optional()
			.describe(
				'Pauses the campaign when more than this share of its latest 200 delivery outcomes (50 at least) failed; default 0.3, 0 never.',
			),
		frequencyCap: z
			.string()
			.nullable()
			.optional()
			.describe(
				'At most N messages to one number within a period, across campaigns: 1/24h, 3/7d; a recipient past it ends capped, never sent.',
			),
		receipts: z
			.boolean()
			.nullable()
			.optional()
			.describe('Delivery receipts to this worker (default true).'),
		replies: z
			.boolean()
			.nullable()
			.optional()
			.describe('Replies to this worker; only with a leased sender (default true without from).'),
		events: z
			.string()
			.nullable()
			.optional()
			.describe(
				"This campaign's events URL (campaign.started, campaign.finished, campaign.paused).",
			),
		signingSecret: z
			.string()
			.nullable()
			.optional()
			.describe(
				"The whsec_ secret its events are signed with (Standard Webhooks), instead of the worker's signing.secret; answered masked.",
			),
	})
	.describe('The settings of `cloudtel campaign run`, with the same meaning.');

/**
 * A recipient: a flat object of column: value, as api/workerApi's `isRecipient` has it.
 * Not a `z.record` of a union of the four value types, nor a zod object: the same shape,
 * but zod copies every recipient it checks, and a 10,000-recipient page then costs 15 to 25
 * ms (a record) or 4 to 8 and as much again in garbage (an object), where this takes 1 or
 * 2. What the record would have said in the OpenAPI document is said to it as it is
 * (`meta` is merged into the JSON Schema).
 */
const recipient = z
	.custom<Recipient>(isRecipient, {
		error: 'must be an object of column: value, each value a string, a number, true, false or null',
	})
	.meta({
		type: 'object',
		properties: {
			consent: {
				type: ['object', 'null'],
				description:
					'Where the number consented and when; stored the first time the number is seen, kept when later lists omit it.',
				properties: {
					source: { type: 'string', description: 'Such as "web form 2026-03".' },
					at: {
						type: 'string',
						description: 'ISO 8601; left out, when it is stored.',
					},
				},
				required: ['source'],
				additionalProperties: false,
			},
		},
		additionalProperties: { type: ['string', 'number', 'boolean', 'null'] },
	});

export const pageBody = z
	.strictObject({
		recipients: z
			.array(recipient)
			.min(1)
			.max(MAX_PAGE_RECIPIENTS)
			.describe(
				`1 to ${MAX_PAGE_RECIPIENTS.toLocaleString('en-US')} flat objects; the keys are the columns, as a CSV header names them.`,
			),
	})
	.describe('One page of recipients.');

export const startBody = z
	.strictObject({
		pages: z
			.number()
			.int()
			.min(1)
			.max(MAX_PAGE_NUMBER)
			.optional()
			.describe('The number of pages expected: pages missing are named in a 409 pages_missing.'),
	})
	.describe('Optional.');

const counts = z.strictObject({
	recipients: z.number().int(),
	pending: z.number().int(),
	accepted: z.number().int(),
	rejected: z.number().int(),
	uncertain: z.number().int(),
	invalid: z.number().int(),
	duplicate: z.number().int(),
	suppressed: z.number().int(),
	capped: z.number().int(),
	cancelled: z.number().int(),
	delivered: z.number().int(),
	undelivered: z.number().int(),
	replies: z.number().int(),
});

export const statusAnswer = z.strictObject({
	campaign: z.strictObject({
		name: z.string(),
		state: z.enum(CAMPAIGN_STATES as [string, ...string[]]),
		settings: settingsBody,
		createdAt: z.string(),
		startedAt: z.string().optional(),
		finishedAt: z.string().optional(),
		reason: z.string().optional(),
		counts,
		variants: z
			.array(
				z.strictObject({
					text: z.string(),
					rows: z.number().int(),
					sent: z.number().int(),
					delivered: z.number().int(),
					failed: z.number().int(),
					replies: z.number().int(),
					clicks: z.number().int(),
					optOuts: z.number().int(),
				}),
			)
			.optional()
			.describe("A campaign with variants: each text's figures, text first."),
		winner: z
			.strictObject({
				index: z.number().int(),
				by: z.string(),
				byHand: z.boolean(),
				decidedAt: z.string(),
			})
			.nullable()
			.optional()
			.describe('The winning text once chosen: index 1-based (1 is text).'),
	}),
});

export const deletedAnswer = z.strictObject({
	deleted: z.strictObject({ name: z.string(), state: z.string() }),
});

export const listAnswer = z.strictObject({
	campaigns: z.array(
		z.strictObject({ name: z.string(), state: z.enum(CAMPAIGN_STATES as [string, ...string[]]) }),
	),
});

export const pageAnswer = z.strictObject({
	page: z.number().int(),
	recipients: z.number().int(),
	pages: z.number().int(),
	totalRecipients: z.number().int(),
	unchanged: z.boolean().optional(),
});

export const csvAnswer = z.strictObject({
	rows: z.number().int(),
	unchanged: z.boolean().optional(),
});

export const previewAnswer = z.strictObject({
	recipients: z.number().int(),
	valid: z.number().int(),
	invalid: z.number().int(),
	duplicates: z.number().int(),
	suppressed: z.number().int(),
	capped: z.number().int(),
	segments: z.number().int(),
	messages: z.number().int(),
	cost: z.number().optional(),
	warnings: z
		.array(z.string())
		.optional()
		.describe(
			"An alphanumeric from sent to Australian numbers and not in the worker's senderIds.registered (Australia's SMS Sender ID Register).",
		),
	problems: z.array(
		z.strictObject({
			line: z.number().int(),
			recipient: z.number().int().optional(),
			field: z.string().optional(),
			code: z.string().optional(),
			message: z.string(),
		}),
	),
	samples: z
		.array(
			z.strictObject({
				line: z.number().int(),
				recipient: z.number().int().optional(),
				to: z.string(),
				text: z.string(),
				segments: z.number().int(),
			}),
		)
		.optional(),
	variants: z
		.array(
			z.strictObject({
				text: z.string(),
				testRecipients: z.number().int(),
				testSegments: z.number().int(),
				restRecipients: z.number().int(),
				restSegments: z.number().int(),
				testCost: z.number().optional(),
				restCost: z.number().optional(),
				ucs2Recipients: z.number().int(),
				ucs2Characters: z.string(),
				sample: z
					.strictObject({ to: z.string(), text: z.string(), segments: z.number().int() })
					.optional(),
			}),
		)
		.optional()
		.describe(
			"A campaign with variants: each text's test, and the rest if it wins (with a price, their cost), text first.",
		),
});

const evidenceRow = z.looseObject({
	line: z.number().int(),
	number: z.string().optional(),
	consentSource: z.string().optional(),
	consentAt: z.number().int().optional().describe('Unix milliseconds, as every time of a row.'),
	status: z.string(),
	text: z.string().optional(),
	handedOverAt: z.number().int().optional(),
	messageSid: z.string().optional(),
	receiptStatus: z.string().optional(),
	receiptAt: z.number().int().optional(),
	replies: z.array(z.number().int()),
	optOutAt: z.number().int().optional(),
	optOutWord: z.string().optional(),
	suppressedAt: z.number().int().optional(),
	confirmationAt: z.number().int().optional(),
	sentAfterOptOut: z
		.boolean()
		.describe('The message was handed over while its number was opted out.'),
});

export const evidenceAnswer = z
	.strictObject({
		campaign: z.string(),
		exportedAt: z.string(),
		rows: z.array(evidenceRow),
	})
	.describe('The JSON of `cloudtel campaign evidence --json`: one row per recipient, by line.');

export const reportAnswer = z
	.looseObject({ campaign: z.string() })
	.describe('The JSON of `cloudtel campaign report --json`.');

export const errorAnswer = z.strictObject({
	error: z.strictObject({
		code: z.enum(
			Object.keys(WORKER_API_ERROR_STATUS) as [WorkerApiErrorCode, ...WorkerApiErrorCode[]],
		),
		message: z.string(),
		field: z.string().optional(),
		problems: z.array(z.strictObject({ field: z.string(), message: z.string() })).optional(),
		differences: z
			.array(z.strictObject({ setting: z.string(), stored: z.unknown(), given: z.unknown() }))
			.optional(),
		missing: z.array(z.number().int()).optional(),
	}),
});
