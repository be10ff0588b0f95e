import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../support/cleanup';
import { storeBackends } from '../../support/storeBackends';
import { ApiUnderTest } from '../api/apiHarness';
import type { CampaignSummary } from '../../../worker/src/campaign/campaignSummary';
import { formatSummary } from '../../../worker/src/report/formatSummary';
import { cli, tempDir, writeCsv } from './harness';

/**
 * What a variant campaign's dry run tells before anything is paid for, per text: its test
 * and rest rows, segments, cost and UCS-2, and a message as it would go; through the CLI
 * and through the API's preview (what the Campaign node's Preview shows). Nothing is
 * stored by either: one backend (SQLite).
 */
const cleanup = cleanupAfterEach();
const sqlite = storeBackends().filter((b) => b.name === 'sqlite');
const SID = '11111111-1111-4111-8111-111111111111';
const A = 'Hi {{Name}}, the sale starts today';
// UCS-2 (the sun), and two segments of 70 characters.
const B = `Hi {{Name}}, sunny deals ☀ all week: 20% off everything in the shop, today and tomorrow only`;

const people = Array.from({ length: 40 }, (_, i) => ({
	phone: `+6149157${String(1000 + i)}`,
	Name: `P${i}`,
}));

interface Forecast {
	text: string;
	testRows: number;
	testSegments: number;
	restRows: number;
	restSegments: number;
	testCost?: number;
	restCost?: number;
	ucs2Rows: number;
	ucs2Characters: string;
	sample?: { line: number; to: string; text: string; segments: number };
}

describe('a variant campaign before it is sent', () => {
	it('a dry run shows each text: its test rows, the rest if it wins, their segments and cost, UCS-2, and its message', async () => {
		const dir = tempDir();
		const csv = writeCsv(
			dir,
			'list.csv',
			`Phone,Name\n${people.map((p) => `${p.phone},${p.Name}`).join('\n')}\n`,
		);
		const args = [
			'campaign',
			'run',
			'--csv',
			csv,
			'--name',
			'sunny',
			'--property',
			SID,
			'--text',
			A,
			'--variant',
			B,
			'--test-share',
			'0.5',
			'--dry-run',
			'--price-per-segment',
			'0.05',
		];
		const env = { CLOUDTEL_ACCOUNT_SID: 'AC1', CLOUDTEL_AUTH_TOKEN: 'token' };
		const json = await cli([...args, '--json'], env);
		expect(json.code, json.stderr).toBe(0);
		const summary = JSON.parse(json.stdout.trim().split('\n').pop()!) as {
			variants: Forecast[];
			preview: { line: number; text: string }[];
			forecast: { ucs2: { examples: { line: number; text: string }[] } };
		};
		const [a, b] = summary.variants;
		expect(a.testRows + b.testRows + a.restRows).toBe(40);
		expect(a.restRows).toBe(b.restRows);
		expect(Math.abs(a.testRows - b.testRows)).toBeLessThanOrEqual(1);
		expect(a).toMatchObject({
			testSegments: a.testRows,
			restSegments: a.restRows,
			testCost: Math.round(a.testRows * 0.05 * 10_000) / 10_000,
			restCost: Math.round(a.restRows * 0.05 * 10_000) / 10_000,
			ucs2Rows: 0,
			ucs2Characters: '',
			sample: { line: 2, to: people[0].phone, text: 'Hi P0, the sale starts today', segments: 1 },
		});
		expect(b).toMatchObject({
			testSegments: 2 * b.testRows,
			restSegments: 2 * b.restRows,
			restCost: Math.round(2 * b.restRows * 0.05 * 10_000) / 10_000,
			ucs2Rows: 40,
			ucs2Characters: '☀',
			sample: { line: 2, text: B.replace('{{Name}}', 'P0'), segments: 2 },
		});
		// The first messages are shown as they go: a test row of text 2 with text 2.
		for (const p of summary.preview)
			expect([A, B].map((t) => t.replace('{{Name}}', `P${p.line - 2}`))).toContain(p.text);
		expect(summary.forecast.ucs2.examples.length).toBeGreaterThan(0);
		for (const e of summary.forecast.ucs2.examples)
			expect(e.text).toBe(B.replace('{{Name}}', `P${e.line - 2}`));

		// What a person at a terminal reads (the TTY reporter prints this summary).
		const text = formatSummary(
			JSON.parse(json.stdout.trim().split('\n').pop()!) as CampaignSummary,
		);
		expect(text).toContain(
			`    2: ${b.testRows} rows, ${2 * b.testRows} segments (cost ${(2 * b.testRows * 0.05).toFixed(2)}); rest ${b.restRows} rows, ${2 * b.restRows} segments (cost ${(2 * b.restRows * 0.05).toFixed(2)}); UCS-2 in 40 rows because of ☀: ${JSON.stringify(B)}`,
		);
		expect(text).toContain(
			`       line 2 to ${people[0].phone} (2 segments): ${B.replace('{{Name}}', 'P0')}`,
		);
	}, 60_000);

	it.each(sqlite)("the API's preview shows the same per text ($name)", async (backend) => {
		const api = await ApiUnderTest.startWithSandbox(backend, cleanup);
		const property = api.sandbox.demo.PropertySid;
		expect(
			(
				await api.call('PUT', '/api/campaigns/sunny', {
					property,
					text: A,
					variants: [B],
					testShare: 0.5,
				})
			).status,
		).toBe(201);
		expect(
			(await api.call('PUT', '/api/campaigns/sunny/pages/1', { recipients: people })).status,
		).toBe(200);
		const preview = await api.call('GET', '/api/campaigns/sunny/preview?pricePerSegment=0.05');
		expect(preview.status, JSON.stringify(preview.body)).toBe(200);
		const [a, b] = preview.body.variants as Record<string, any>[];
		expect(a.testRecipients + b.testRecipients + a.restRecipients).toBe(40);
		expect(a).toMatchObject({
			text: A,
			testSegments: a.testRecipients,
			ucs2Recipients: 0,
			ucs2Characters: '',
			sample: { to: people[0].phone, text: 'Hi P0, the sale starts today', segments: 1 },
		});
		expect(b).toMatchObject({
			text: B,
			restSegments: 2 * b.restRecipients,
			restCost: Math.round(2 * b.restRecipients * 0.05 * 10_000) / 10_000,
			ucs2Recipients: 40,
			ucs2Characters: '☀',
			sample: { to: people[0].phone, text: B.replace('{{Name}}', 'P0'), segments: 2 },
		});
	});
});
