import type { INodeProperties } from 'n8n-workflow';
import { SEND_MESSAGE_FIELDS } from '../../../../api';
import { propertySidField } from '../common/propertySid';

const methodOptions = [
	{ name: 'POST', value: 'POST' },
	{ name: 'GET', value: 'GET' },
];

const TRIGGER_HINT =
	'Paste the Production URL of a CloudTel Trigger here (add ?secret=... if the trigger has a Secret)';

const DEFINE_BELOW = { show: { mapping: ['defineBelow'] } };

const replyHandling: INodeProperties = {
	displayName: 'Reply Handling',
	name: 'replyHandling',
	type: 'collection',
	placeholder: 'Add option',
	default: {},
	description: 'What happens to a reply. Only for messages from a leased number (a blank From).',
	options: [
		{
			displayName: 'Forward From Email',
			name: 'ForwardFromEmail',
			type: 'string',
			placeholder: 'e.g. name@email.com',
			default: '',
			description: 'Sender of the forwarded e-mail; a no-reply address by default',
		},
		{
			displayName: 'Forward From SMS',
			name: 'ForwardFromSms',
			type: 'string',
			default: '',
			description: "Sender ID of the forwarded SMS; the replier's own by default",
		},
		{
			displayName: 'Forward To Email',
			name: 'ForwardToEmail',
			type: 'string',
			placeholder: 'e.g. name@email.com',
			default: '',
			description: 'E-mail address a reply is forwarded to',
		},
		{
			displayName: 'Forward To SMS',
			name: 'ForwardToSms',
			type: 'string',
			default: '',
			placeholder: 'e.g. +61412345678',
			description: 'E.164 number a reply is forwarded to',
		},
		{
			displayName: 'Webhook Method',
			name: 'WebhookMethod',
			type: 'options',
			options: methodOptions,
			default: 'POST',
		},
		{
			displayName: 'Webhook URI',
			name: 'WebhookUri',
			type: 'string',
			default: '',
			placeholder: 'e.g. https://n8n.example.com/webhook/.../cloudtel',
			description: `Where a reply is sent. ${TRIGGER_HINT}.`,
		},
	],
};

/** The fields of one message, shared by Send and Send Batch (where each item is one message). */
export const messageFields: INodeProperties[] = [
	propertySidField('The property that sends; it and its account must be SMS-enabled'),
	{
		displayName: 'Message Fields',
		name: 'mapping',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Define Below',
				value: 'defineBelow',
				description: 'Set From, To and Text here, with expressions for values that differ per item',
			},
			{
				name: 'Map From Input',
				value: 'autoMap',
				description:
					"Each input item carries its message under the API's field names (listed once chosen); Options are defaults. Fastest for large batches.",
			},
		],
		default: 'defineBelow',
	},
	{
		// The list comes from api/, so the panel names exactly the fields the node reads.
		displayName: `Each item is one message, read from these fields of the item (any letter case): ${SEND_MESSAGE_FIELDS.join(', ')}. To and Text are required; without a To field, the number is read from Phone or Mobile, as a campaign reads it. Options and Reply Handling below are defaults: a field the item carries wins.`,
		name: 'mapFromInputNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { mapping: ['autoMap'] } },
	},
	{
		displayName: 'From',
		name: 'from',
		type: 'string',
		displayOptions: DEFINE_BELOW,
		default: '',
		placeholder: 'e.g. +61412345678 or MyBrand',
		description:
			'Sender ID: an E.164 number, or 1 to 11 letters, digits and spaces. Leave blank to send from a leased number, which can receive replies.',
	},
	{
		displayName: 'To',
		name: 'to',
		type: 'string',
		displayOptions: DEFINE_BELOW,
		default: '',
		required: true,
		placeholder: 'e.g. +61412345678',
		description: 'Recipient in E.164 format',
	},
	{
		displayName: 'Text',
		name: 'text',
		type: 'string',
		displayOptions: DEFINE_BELOW,
		typeOptions: { rows: 4 },
		default: '',
		required: true,
		description: 'The message, 1 to 1600 characters',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				// Not a field of the API: the node's own reading of To, before the API's check.
				displayName: 'Default Country',
				name: 'defaultCountry',
				type: 'string',
				default: '',
				placeholder: 'e.g. AU',
				description:
					'Two-letter country of numbers written without their country code (0412 345 678 in AU becomes +61412345678)',
			},
			{
				displayName: 'Delivery Receipt',
				name: 'DeliveryReceipt',
				type: 'boolean',
				default: true,
				description: 'Whether to ask for a delivery receipt',
			},
			{
				// Short labels: the panel cuts an option's label after about 25 characters.
				displayName: 'Delivery Receipt Method',
				name: 'DeliveryReceiptWebhookMethod',
				type: 'options',
				options: methodOptions,
				default: 'POST',
			},
			{
				displayName: 'Delivery Receipt URI',
				name: 'DeliveryReceiptWebhookUri',
				type: 'string',
				default: '',
				placeholder: 'e.g. https://n8n.example.com/webhook/.../cloudtel',
				description: `Where the delivery receipt is sent (the API's DeliveryReceiptWebhookUri). ${TRIGGER_HINT}.`,
			},
			{
				displayName: 'External ID',
				name: 'ExternalId',
				type: 'string',
				default: '',
				description: 'Your own ID for the message, echoed in receipts and replies',
			},
			{
				displayName: 'Schedule',
				name: 'Schedule',
				type: 'dateTime',
				default: '',
				description:
					"When to send, at most 14 days ahead; a time under an hour in the past sends now. Without a time zone, the workflow's time zone applies.",
			},
		],
	},
	// Reply Handling, twice under one name (so one value): in Define Below only while From is
	// blank (replies come only to a leased number); in Map From Input always, since each
	// item brings its own From and the From field above is hidden there, whatever it holds.
	{ ...replyHandling, displayOptions: { show: { mapping: ['defineBelow'], from: [''] } } },
	{ ...replyHandling, displayOptions: { show: { mapping: ['autoMap'] } } },
];
