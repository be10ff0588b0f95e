import type { IDataObject } from 'n8n-workflow';
import { isCampaignEvent, type CampaignEvent, type CampaignEventType } from '../../api';

/** The trigger's event choice for each type of event the cloudtel worker posts. */
export const WORKER_EVENT_CHOICES: Record<CampaignEventType, { value: string; event: string }> = {
	'campaign.started': { value: 'campaignStarted', event: 'CampaignStarted' },
	'campaign.finished': { value: 'campaignFinished', event: 'CampaignFinished' },
	'campaign.paused': { value: 'campaignPaused', event: 'CampaignPaused' },
	'campaign.variant_decided': { value: 'campaignVariantDecided', event: 'CampaignVariantDecided' },
	reply: { value: 'campaignReply', event: 'CampaignReply' },
	optout: { value: 'optout', event: 'OptOut' },
	'optout.review': { value: 'optoutReview', event: 'OptOutReview' },
	click: { value: 'linkClicked', event: 'LinkClicked' },
};

export interface WorkerEvent {
	/** The event choice it answers to. */
	choice: string;
	/** What repeats of it share: the Idempotency-Key the worker sends, stable across its retries. */
	key: string;
	json: IDataObject;
}

function headerValue(headers: Record<string, unknown>, name: string): string | undefined {
	const v = headers[name];
	const first = Array.isArray(v) ? v[0] : v;
	return typeof first === 'string' && first !== '' ? first : undefined;
}

/** A campaign reply's fields as a provider reply spells them, so one workflow reads both the same way. */
const PROVIDER_NAMES: Record<string, string> = {
	from: 'From',
	to: 'To',
	text: 'Text',
	messageSid: 'MessageSid',
};

function providerSpelling(data: Record<string, unknown>): IDataObject {
	const out: IDataObject = {};
	for (const [key, name] of Object.entries(PROVIDER_NAMES))
		if (data[key] !== undefined) out[name] = data[key] as IDataObject[string];
	return out;
}

/**
 * A POST of the worker's events (`{id, type, occurredAt, campaign?, data}`), told apart from
 * the provider's callbacks by that shape, which no callback has. Undefined for anything else.
 * The item: `Event` as the other events name it, then the event's own fields and its data's;
 * a reply's also as the provider spells them (From, To, Text, MessageSid), the worker's
 * from, to, text and messageSid kept beside them as aliases.
 */
export function readWorkerEvent(
	method: string,
	body: unknown,
	headers: Record<string, unknown>,
): WorkerEvent | undefined {
	if (method.toUpperCase() !== 'POST' || !isCampaignEvent(body)) return undefined;
	const event = body as CampaignEvent;
	const choice = WORKER_EVENT_CHOICES[event.type];
	const json: IDataObject = {
		Event: choice.event,
		type: event.type,
		id: event.id,
		occurredAt: event.occurredAt,
	};
	if (event.campaign !== undefined) json.campaign = event.campaign;
	Object.assign(json, event.data as IDataObject, { Event: choice.event });
	if (event.type === 'reply') Object.assign(json, providerSpelling(event.data));
	return { choice: choice.value, key: headerValue(headers, 'idempotency-key') ?? event.id, json };
}
