import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import {
	checkCampaignSettings,
	MAX_BATCH_SIZE,
	type CampaignSettingName,
	type CampaignSettings,
} from '../../../../api';
import { toUnixSeconds } from '../../../CloudTel/actions/common/unixSeconds';
import { readTemplateText } from './templateText';

/** The panel's name of each setting, so an error names the field the user sees. */
export const SETTING_DISPLAY_NAMES: Record<CampaignSettingName, string> = {
	property: 'Property SID',
	text: 'Text',
	from: 'From',
	toColumn: 'To Column',
	defaultCountry: 'Default Country',
	timeZone: 'Time Zone',
	timeZoneColumn: 'Time Zone Column',
	sendWindow: 'Send Window',
	schedule: 'Schedule',
	rate: 'Rate',
	batchSize: 'Batch Size',
	smartEncoding: 'Smart Encoding',
	countries: 'Countries',
	allowLandlines: 'Allow Landlines',
	maxCost: 'Max Cost',
	maxFailureRate: 'Max Failure Rate',
	frequencyCap: 'Frequency Cap',
	pricePerSegment: 'Price Per Segment',
	variants: 'Variants',
	testShare: 'Test Share',
	winnerBy: 'Winner By',
	decideAfter: 'Decide After',
	trackLinks: 'Track Links',
	requireConsent: 'Require Consent',
	receipts: 'Delivery Receipts',
	replies: 'Replies',
	events: 'Events URL',
	signingSecret: 'Events Signing Secret',
};

/** The campaign's settings as the panel shows them (Start and Preview): the worker's `campaign run` settings. */
export const settingsFields: INodeProperties[] = [
	{
		displayName: 'Property SID',
		name: 'propertySid',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 3f2504e0-4f89-41d3-9a0c-0305e82c3301',
		description: 'The property the messages go out on',
		// This node holds only the worker's credential: say where the SID is found.
		hint: "The same SID as the Default Property SID of your CloudTel API credential (or a Send node's Property SID): the worker sends from it with its own CloudTel account",
	},
	{
		displayName: 'Text',
		name: 'text',
		type: 'string',
		required: true,
		typeOptions: { rows: 4 },
		default: '',
		placeholder: 'e.g. Hi {{first_name}}, our spring sale starts today. Reply STOP to opt out.',
		description:
			"The message, a template over each recipient's fields: {{first_name}} is replaced by the recipient's first_name. Keep this field Fixed: as an Expression, n8n would evaluate it once for all items, so a plain read of an item's field is turned into its placeholder and other per-item expressions are refused.",
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Allow Landlines',
				name: 'allowLandlines',
				type: 'boolean',
				default: false,
				description:
					'Whether numbers that are fixed lines only are sent too; otherwise they end invalid (NOT_MOBILE)',
			},
			{
				displayName: 'Batch Size',
				name: 'batchSize',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: MAX_BATCH_SIZE },
				default: 1000,
				description: 'Messages per BatchMessages request the worker makes',
			},
			{
				displayName: 'Countries',
				name: 'countries',
				type: 'string',
				default: '',
				placeholder: 'e.g. AU,NZ',
				description:
					'Two-letter countries whose numbers may be sent, separated by commas; numbers of others end invalid (COUNTRY_NOT_ALLOWED)',
			},
			{
				displayName: 'Decide After',
				name: 'decideAfter',
				type: 'string',
				default: '2h',
				placeholder: 'e.g. 2h',
				description:
					"With Variants: how long after the test's last message the winner is chosen (2h, 30m, 90s)",
			},
			{
				displayName: 'Default Country',
				name: 'defaultCountry',
				type: 'string',
				default: '',
				placeholder: 'e.g. AU',
				description:
					'Two-letter country of numbers written without their country code (0412 345 678)',
			},
			{
				displayName: 'Delivery Receipts',
				name: 'receipts',
				type: 'boolean',
				default: true,
				description:
					'Whether the worker asks for a delivery receipt of every message (counted as delivered or undelivered)',
			},
			{
				displayName: 'Events Signing Secret',
				name: 'signingSecret',
				type: 'string',
				typeOptions: { password: true },
				default: '',
				placeholder: 'e.g. whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
				description:
					"The whsec_ secret this campaign's events are signed with (Standard Webhooks), for a CloudTel Trigger's Signing Secret; empty: the worker's signing.secret",
			},
			{
				displayName: 'Events URL',
				name: 'events',
				type: 'string',
				default: '',
				placeholder: 'e.g. https://n8n.example.com/webhook/.../cloudtel?secret=...',
				description:
					"Where the worker posts this campaign's events (started, paused, finished with its counts): the Production URL of a CloudTel Trigger listening for campaign events, with ?secret= if it has a Secret",
			},
			{
				displayName: 'Frequency Cap',
				name: 'frequencyCap',
				type: 'string',
				default: '',
				placeholder: 'e.g. 1/24h',
				description:
					'At most N messages to one number within a period, across all campaigns of the worker (1/24h, 3/7d); a recipient past it ends capped, not sent',
			},
			{
				displayName: 'From',
				name: 'from',
				type: 'string',
				default: '',
				placeholder: 'e.g. +61412345678 or MyBrand',
				description:
					'Sender ID: an E.164 number, or 1 to 11 letters, digits and spaces. Leave blank to send from a leased number, which can receive replies.',
			},
			{
				displayName: 'Max Cost',
				name: 'maxCost',
				type: 'number',
				typeOptions: { minValue: 0, numberPrecision: 4 },
				default: 0,
				description:
					'Spend cap: the campaign pauses before a message would take its cost past this (needs Price Per Segment)',
			},
			{
				displayName: 'Max Failure Rate',
				name: 'maxFailureRate',
				type: 'number',
				typeOptions: { minValue: 0, maxValue: 1, numberPrecision: 2 },
				default: 0.3,
				description:
					'Failure-rate brake: the campaign pauses when more than this share of its latest 200 delivery outcomes (50 at least) failed; 0 turns it off. Resume it to go on.',
			},
			{
				displayName: 'Price Per Segment',
				name: 'pricePerSegment',
				type: 'number',
				typeOptions: { minValue: 0, numberPrecision: 6 },
				default: 0,
				description: 'The price of one message segment, for Max Cost',
			},
			{
				displayName: 'Rate',
				name: 'rate',
				type: 'number',
				typeOptions: { minValue: 0 },
				default: 100,
				description: 'Messages per second; 0 for no limit',
			},
			{
				displayName: 'Replies',
				name: 'replies',
				type: 'boolean',
				default: true,
				description:
					'Whether replies come back to the worker (its reply rules and opt-outs). Only with a leased number (a blank From).',
			},
			{
				displayName: 'Schedule',
				name: 'schedule',
				type: 'dateTime',
				default: '',
				description:
					"When to start sending; empty, at once. Without a time zone, the workflow's time zone applies.",
			},
			{
				displayName: 'Send Window',
				name: 'sendWindow',
				type: 'string',
				default: '',
				placeholder: 'e.g. 09:00-20:00',
				description: 'Local hours messages may go out in; needs Time Zone or Time Zone Column',
			},
			{
				displayName: 'Smart Encoding',
				name: 'smartEncoding',
				type: 'boolean',
				default: false,
				description:
					'Whether typographic characters (curly quotes, dashes, ellipsis) go as their GSM-7 equivalents, for fewer segments',
			},
			{
				displayName: 'Test Share',
				name: 'testShare',
				type: 'number',
				typeOptions: { minValue: 0.01, maxValue: 1, numberPrecision: 2 },
				default: 0.2,
				description:
					'With Variants: the share of the list the texts are tested on, split evenly between them',
			},
			{
				displayName: 'Time Zone',
				name: 'timeZone',
				type: 'string',
				default: '',
				placeholder: 'e.g. Australia/Sydney',
				description: 'Zone of the Send Window: an IANA name or a Windows time zone ID',
			},
			{
				displayName: 'Time Zone Column',
				name: 'timeZoneColumn',
				type: 'string',
				default: '',
				placeholder: 'e.g. tz',
				description: "A recipient field holding each recipient's own zone, overriding Time Zone",
			},
			{
				displayName: 'To Column',
				name: 'toColumn',
				type: 'string',
				default: '',
				placeholder: 'e.g. phone',
				description:
					'The recipient field holding the number; empty, the first field named To, Phone or Mobile (any case)',
			},
			{
				displayName: 'Track Links',
				name: 'trackLinks',
				type: 'boolean',
				default: false,
				description:
					"Whether every http(s) URL in the text becomes a short link of each recipient's own, counted by the worker (needs links.baseUrl in the worker's config)",
			},
			{
				displayName: 'Variants',
				name: 'variants',
				type: 'string',
				typeOptions: { multipleValues: true, rows: 2 },
				default: [],
				placeholder: 'e.g. Hi {{first_name}}, 20% off today only',
				description:
					'Up to four other texts tried against Text on the Test Share of the list; the rest of the list goes with the text that wins',
			},
			{
				displayName: 'Winner By',
				name: 'winnerBy',
				type: 'options',
				options: [
					{ name: 'Clicks', value: 'clicks' },
					{ name: 'Delivered', value: 'delivered' },
					{ name: 'Fewest Opt-Outs', value: 'optouts' },
					{ name: 'Replies', value: 'replies' },
				],
				default: 'replies',
				description:
					'With Variants: what makes a text the winner, as a rate of its messages sent (Clicks needs Track Links)',
			},
		],
	},
];

const isBlank = (value: unknown) =>
	value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/**
 * The settings of the campaign from the node's fields (read once: the items are the
 * recipients, not campaigns), checked by the worker's own rule, so a bad one fails in n8n
 * naming the field before anything is handed over.
 */
export function readSettings(ctx: IExecuteFunctions): CampaignSettings {
	const options = ctx.getNodeParameter('options', 0, {}) as IDataObject;
	const body: IDataObject = {
		property: String(ctx.getNodeParameter('propertySid', 0, '')).trim(),
	};
	const template = readTemplateText(ctx);
	body.text = template.text;
	if (template.rewritten) {
		ctx.addExecutionHints({
			message: `Text was an Expression, which n8n evaluates once for all items; it was read as the per-recipient template "${template.text}". Set Text to Fixed to keep it so.`,
			location: 'outputPane',
		});
	}
	for (const [key, value] of Object.entries(options)) {
		if (isBlank(value)) continue;
		body[key] = typeof value === 'string' ? value.trim() : value;
	}
	if (typeof body.countries === 'string')
		body.countries = body.countries
			.split(',')
			.map((c) => c.trim())
			.filter((c) => c !== '');
	if (!isBlank(options.schedule)) {
		const seconds = toUnixSeconds(options.schedule, ctx.getTimezone());
		body.schedule =
			seconds === undefined ? String(options.schedule) : new Date(seconds * 1000).toISOString();
	}
	const { settings, problems } = checkCampaignSettings(body);
	if (settings) return settings;
	const names = [
		...new Set(
			problems.map((p) => SETTING_DISPLAY_NAMES[p.field as CampaignSettingName] ?? p.field),
		),
	];
	throw new NodeOperationError(ctx.getNode(), `Invalid ${names.join(', ')}`, {
		itemIndex: 0,
		description: problems
			.map(
				(p) => `${SETTING_DISPLAY_NAMES[p.field as CampaignSettingName] ?? p.field}: ${p.message}`,
			)
			.join('\n'),
	});
}
