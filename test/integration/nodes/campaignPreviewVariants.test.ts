// The CloudTel Campaign node's Preview of a campaign with variants, against the worker's
// real campaign API (in process, SQLite) and the sandbox: each text as the worker counts it.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { INodeExecutionData } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../../sandbox/src';
import { CloudTelCampaign } from '../../../nodes/CloudTelCampaign/CloudTelCampaign.node';
import { API_TOKEN, ApiUnderTest } from '../api/apiHarness';
import { campaignContext } from './fakeN8nCampaign';
import { tempDir } from '../../support/tempDir';

let sandbox: RunningSandbox;
let api: ApiUnderTest;
let dir: string;

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0 });
	dir = tempDir('campaign-node-variants-');
	api = await ApiUnderTest.start(sandbox, { kind: 'sqlite', path: join(dir, 'worker.db') });
});
afterAll(async () => {
	await api.close();
	await sandbox.close();
	rmSync(dir, { recursive: true, force: true });
});

const people: INodeExecutionData[] = Array.from({ length: 20 }, (_, i) => ({
	json: { phone: `+614917${String(i).padStart(5, '0')}`, first_name: `N${i}` },
}));

describe('CloudTel Campaign Preview with variants', () => {
	it("shows each text's test and rest, segments, cost and UCS-2, and its first message", async () => {
		const ctx = campaignContext({
			credentials: { url: api.url, apiToken: API_TOKEN },
			params: {
				operation: 'preview',
				campaignName: 'texts',
				propertySid: sandbox.demo.PropertySid,
				text: 'Hi {{first_name}}',
				pricePerSegment: 0.05,
				options: { rate: 0, variants: ['Hi {{first_name}} ☀'], testShare: 0.5 },
			},
			items: people,
		});
		const [[preview]] = await new CloudTelCampaign().execute.call(ctx);
		const [a, b] = preview.json.variants as Record<string, unknown>[];
		expect(a).toMatchObject({
			text: 'Hi {{first_name}}',
			ucs2Recipients: 0,
			sample: { to: '+61491700000', text: 'Hi N0', segments: 1 },
		});
		expect(b).toMatchObject({
			text: 'Hi {{first_name}} ☀',
			ucs2Recipients: 20,
			ucs2Characters: '☀',
			sample: { to: '+61491700000', text: 'Hi N0 ☀', segments: 1 },
		});
		expect(Number(a.testRecipients) + Number(b.testRecipients) + Number(a.restRecipients)).toBe(20);
		expect(b.restCost).toBe(Math.round(Number(b.restSegments) * 0.05 * 10_000) / 10_000);
	});
});
