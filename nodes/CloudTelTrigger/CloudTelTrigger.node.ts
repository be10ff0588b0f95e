import type {
	IDataObject,
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';
import { callbackEventKey, ErrorCodes, parseCallback } from '../../api';
import { withReadableDates } from '../CloudTel/actions/common/readableDates';
import { readPayload } from './readPayload';
import { secretMatches } from './secret';
import { seenBefore } from './seenCallbacks';
import { signatureProblem } from './webhookSignature';
import { readWorkerEvent } from './workerEvent';

const EVENT_NAMES = { receipt: 'DeliveryReceipt', reply: 'Reply' } as const;

function answer(
	res: ReturnType<IWebhookFunctions['getResponseObject']>,
	status: number,
	body: IDataObject,
): IWebhookResponseData {
	res.status(status).json(body);
	return { noWebhookResponse: true };
}

export class CloudTelTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'CloudTel Trigger',
		name: 'cloudTelTrigger',
		icon: { light: 'file:cloudtelTrigger.svg', dark: 'file:cloudtelTrigger.dark.svg' },
		group: ['trigger'],
		version: 1,
		// The events' names as the panel shows them, not their values ("receipt").
		subtitle:
			'={{ $parameter["events"].map((e) => ({ receipt: "Delivery Receipt", reply: "Reply", campaignStarted: "Campaign Started", campaignFinished: "Campaign Finished", campaignPaused: "Campaign Paused", campaignVariantDecided: "Campaign Variant Decided", campaignReply: "Campaign Reply", optout: "Opt-Out", optoutReview: "Opt-Out to Review", linkClicked: "Link Clicked" })[e] || e).join(", ") }}',
		description:
			"Starts the workflow when CloudTel sends a delivery receipt or a reply to a leased number, or when a cloudtel worker's campaign starts, pauses or finishes",
		// As for the CloudTel node: opened as it is, so the "#heading" stays intact.
		documentationUrl: 'https://github.com/cloudtel/n8n-nodes-cloudtel#the-cloudtel-trigger',
		defaults: { name: 'CloudTel Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		// The provider calls back with POST or GET, at the sender's choice, on one URL.
		webhooks: [
			{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'cloudtel' },
			{ name: 'default', httpMethod: 'GET', responseMode: 'onReceived', path: 'cloudtel' },
		],
		triggerPanel: {
			header: 'Copy the Production URL into CloudTel',
			executionsHelp: {
				inactive:
					"Put this node's Test URL in a CloudTel Send's Delivery Receipt URI (receipts) or Reply Handling &gt; Webhook URI (replies), adding ?secret=&lt;your secret&gt; if you set a Secret, start listening with the button on this panel, then send a message.",
				active:
					"Put this node's Production URL in a CloudTel Send's Delivery Receipt URI (receipts) or Reply Handling &gt; Webhook URI (replies), adding ?secret=&lt;your secret&gt; if you set a Secret. Each callback starts one execution.",
			},
			activationHint:
				"Once the workflow is published ('Publish' in n8n 2.x, the 'Active' switch in 1.x), every callback to the Production URL starts an execution.",
		},
		properties: [
			{
				displayName:
					// The editor renders notices as HTML: the angle brackets are escaped to show.
					"CloudTel has no webhook registration: give this node's URL per message, in a Send's Delivery Receipt URI (under Options) or Reply Handling &gt; Webhook URI (POST or GET both work). With a Secret, append ?secret=&lt;your secret&gt; to the URL. For campaign events, give the URL as a CloudTel Campaign Start's Events URL (or the worker's events.url). To test, use the Test URL while this trigger listens for a test event (the button on its panel); for real callbacks, publish the workflow and use the Production URL.",
				name: 'notice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				required: true,
				default: ['receipt', 'reply'],
				options: [
					{
						name: 'Campaign Finished',
						value: 'campaignFinished',
						description:
							"A cloudtel worker's campaign ended (finished, cancelled or failed), with its counts",
					},
					{
						name: 'Campaign Paused',
						value: 'campaignPaused',
						description: "A cloudtel worker's campaign was paused",
					},
					{
						name: 'Campaign Reply',
						value: 'campaignReply',
						description: 'A reply to a campaign, as the cloudtel worker reports it',
					},
					{
						name: 'Campaign Started',
						value: 'campaignStarted',
						description: "A cloudtel worker's campaign began sending",
					},
					{
						name: 'Campaign Variant Decided',
						value: 'campaignVariantDecided',
						description:
							"A cloudtel worker's campaign chose the winning text of its variants' test",
					},
					{
						name: 'Delivery Receipt',
						value: 'receipt',
						description: 'A message was delivered, or failed',
					},
					{
						name: 'Link Clicked',
						value: 'linkClicked',
						description:
							"A recipient's first click on a tracked link of a cloudtel worker's campaign (link previews never count)",
					},
					{
						name: 'Opt-Out',
						value: 'optout',
						description: 'A number opted out (STOP) at the cloudtel worker',
					},
					{
						name: 'Opt-Out to Review',
						value: 'optoutReview',
						description:
							'A reply asked to stop in words of its own ("remove me"); the cloudtel worker holds it for a person',
					},
					{
						name: 'Reply',
						value: 'reply',
						description: 'Someone replied to a message sent from a leased number',
					},
				],
			},
			{
				displayName: 'Secret',
				name: 'secret',
				type: 'string',
				typeOptions: { password: true },
				default: '',
				description:
					'When set, a callback must carry it as the query parameter "secret" or the header "X-CloudTel-Secret"; anything else is answered 401 and starts nothing',
			},
			{
				displayName: 'Signing Secret',
				name: 'signingSecret',
				type: 'string',
				typeOptions: { password: true },
				default: '',
				placeholder: 'e.g. whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
				description:
					'For deliveries from a cloudtel worker (forward.n8n, events): its signing.secret. When set, a delivery whose webhook-signature does not match, or whose webhook-timestamp is more than 5 minutes from now, is answered 401 and starts nothing. Leave empty for callbacks straight from CloudTel, which are not signed.',
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add option',
				default: {},
				options: [
					{
						displayName: 'Ignore Repeats',
						name: 'ignoreRepeats',
						type: 'boolean',
						default: true,
						description:
							"Whether a callback whose MessageSid and event this n8n process already received in the last hour (a provider retry), or a worker event whose Idempotency-Key it already received, is answered 200 without starting an execution. Holds within one n8n process, concurrent repeats included; not across queue-mode webhook processes or a restart. Across processes, gate the workflow on a shared atomic store (the README's Redis Increment template).",
					},
				],
			},
		],
	};

	// CloudTel has no API to register or list webhooks: the URL travels with each message.
	// So there is nothing to check, create or delete, and each step simply succeeds.
	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return true;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const req = this.getRequestObject();
		const res = this.getResponseObject();
		const query = (this.getQueryData() ?? {}) as IDataObject;
		const secret = this.getNodeParameter('secret', '') as string;
		const headers = this.getHeaderData() as Record<string, unknown>;
		if (secret !== '' && !secretMatches(secret, query, headers)) {
			return answer(res, 401, {
				ResponseStatus: { ErrorCode: ErrorCodes.Unauthorized, Message: 'Missing or wrong secret.' },
			});
		}

		const signingSecret = this.getNodeParameter('signingSecret', '') as string;
		if (signingSecret !== '') {
			// The bytes as sent: a re-serialized body could differ from what was signed.
			const raw = (req as { rawBody?: unknown }).rawBody;
			const body = Buffer.isBuffer(raw) ? raw.toString('utf8') : JSON.stringify(this.getBodyData());
			const problem = signatureProblem(signingSecret, headers, body, Date.now());
			if (problem !== undefined)
				return answer(res, 401, {
					ResponseStatus: { ErrorCode: ErrorCodes.Unauthorized, Message: problem },
				});
		}

		const events = this.getNodeParameter('events', []) as string[];
		const ignoreRepeats = this.getNodeParameter('options.ignoreRepeats', true) as boolean;
		const scope = `${this.getWorkflow().id ?? ''}/${this.getNode().id ?? this.getNode().name}`;

		// The cloudtel worker's campaign events: one shape, de-duplicated by their Idempotency-Key.
		const workerEvent = readWorkerEvent(req.method, this.getBodyData(), headers);
		if (workerEvent) {
			if (!events.includes(workerEvent.choice))
				return answer(res, 200, { received: true, ignored: 'event not selected' });
			if (ignoreRepeats && seenBefore(scope, `event:${workerEvent.key}`))
				return answer(res, 200, { received: true, ignored: 'repeat' });
			return { workflowData: [[{ json: workerEvent.json }]] };
		}

		const payload = readPayload(req.method, query, this.getBodyData());
		const parsed = parseCallback(payload);
		if (!parsed.ok) {
			const message = parsed.violations.map((v) => v.Message).join(' ');
			return answer(res, 400, {
				ResponseStatus: {
					ErrorCode: parsed.violations[0].ErrorCode,
					Message: message,
					Errors: parsed.violations as unknown as IDataObject[],
				},
			});
		}

		const { event } = parsed;
		// Answered 200 so the provider does not retry an event nobody here listens to.
		if (!events.includes(event.kind))
			return answer(res, 200, { received: true, ignored: 'event not selected' });
		if (ignoreRepeats && seenBefore(scope, callbackEventKey(event))) {
			return answer(res, 200, { received: true, ignored: 'repeat' });
		}

		return {
			workflowData: [
				[
					{
						json: {
							Event: EVENT_NAMES[event.kind],
							...withReadableDates(event.data as unknown as IDataObject),
							Raw: payload as IDataObject,
						},
					},
				],
			],
		};
	}
}
