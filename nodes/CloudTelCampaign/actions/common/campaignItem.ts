import type { IDataObject } from 'n8n-workflow';
import type { CampaignStatus } from '../../../../api';

/** A campaign's status as an output item's json: its name first, then state, counts and times. */
export function campaignJson(status: CampaignStatus, extra: IDataObject = {}): IDataObject {
	const { name, state, counts, createdAt, startedAt, finishedAt, reason, settings } = status;
	const json: IDataObject = { campaign: name, state, ...extra, counts: { ...counts } as unknown as IDataObject, createdAt };
	if (startedAt !== undefined) json.startedAt = startedAt;
	if (finishedAt !== undefined) json.finishedAt = finishedAt;
	if (reason !== undefined) json.reason = reason;
	json.settings = { ...settings } as unknown as IDataObject;
	return json;
}
