import type { IDataObject } from 'n8n-workflow';
import type { CampaignStatus } from '../../../../api';
import { maskSecret } from './maskSecret';

/** A campaign's status as an output item's json: its name first, then state, counts and times; the Events URL's secret masked. */
export function campaignJson(status: CampaignStatus, extra: IDataObject = {}): IDataObject {
	const { name, state, counts, createdAt, startedAt, finishedAt, reason, settings } = status;
	const json: IDataObject = {
		campaign: name,
		state,
		...extra,
		counts: { ...counts } as unknown as IDataObject,
		createdAt,
	};
	if (startedAt !== undefined) json.startedAt = startedAt;
	if (finishedAt !== undefined) json.finishedAt = finishedAt;
	if (reason !== undefined) json.reason = reason;
	json.settings = {
		...settings,
		...(settings.events !== undefined ? { events: maskSecret(settings.events) } : {}),
	} as unknown as IDataObject;
	return json;
}
