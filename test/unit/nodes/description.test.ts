import { describe, expect, it } from 'vitest';
import { BATCH_MAX_MESSAGES, SipTrunkType } from '../../../api';
import { CloudTel } from '../../../nodes/CloudTel/CloudTel.node';

const properties = new CloudTel().description.properties;

function shownFor(resource: string, operation: string, name: string) {
	const found = properties.find((p) => p.name === name && p.displayOptions?.show?.resource?.includes(resource) && p.displayOptions?.show?.operation?.includes(operation));
	if (!found) throw new Error(`no ${name} for ${resource}.${operation}`);
	return found;
}

describe('CloudTel node description', () => {
	// n8n's scan wants literal defaults; these keep the literals equal to api/'s rules.
	it("defaults Batch Size to the provider's batch limit", () => {
		expect(shownFor('message', 'sendBatch', 'batchSize').default).toBe(BATCH_MAX_MESSAGES);
	});

	it('defaults a SIP trunk to IP to IP', () => {
		expect(shownFor('sipTrunk', 'create', 'type').default).toBe(SipTrunkType.IpToIp);
	});
});
