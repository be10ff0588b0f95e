// The worker's campaign API as /work CAMPAIGN_API.md words it, in memory, for the node's own
// tests (what it sends, page by page, and what it does with each answer). The real worker is
// driven by the e2e scenario `campaign` and the worker's API tests.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
	checkCampaignSettings,
	emptyCampaignCounts,
	settingDifferences,
	type CampaignSettings,
	type CampaignStatus,
} from '../../../api';

export interface ContractWorker {
	url: string;
	token: string;
	campaigns: Map<string, { status: CampaignStatus; pages: Map<number, string> }>;
	/** Requests as they came: method and path. */
	log: string[];
	/** Answer the next requests to this path with this status, once each. */
	failNext(path: string, status: number, times?: number): void;
	close(): Promise<void>;
}

function send(res: import('node:http').ServerResponse, status: number, body: unknown) {
	res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

const err = (code: string, message: string, extra: Record<string, unknown> = {}) => ({
	error: { code, message, ...extra },
});

export async function contractWorker(
	token = 'a-token-of-16-chars-or-more',
): Promise<ContractWorker> {
	const campaigns: ContractWorker['campaigns'] = new Map();
	const log: string[] = [];
	const failures = new Map<string, { status: number; times: number }>();
	const server: Server = createServer((req, res) => {
		let text = '';
		req.on('data', (c) => (text += c));
		req.on('end', () => {
			const path = new URL(req.url ?? '/', 'http://x').pathname;
			log.push(`${req.method} ${path}`);
			const fail = failures.get(path);
			if (fail && fail.times > 0) {
				fail.times--;
				return res
					.writeHead(fail.status, { 'content-type': 'application/json', 'retry-after': '0' })
					.end(JSON.stringify(err('invalid', `refused for the test (${fail.status})`)));
			}
			if (req.headers.authorization !== `Bearer ${token}`)
				return res
					.writeHead(401, { 'www-authenticate': 'Bearer', 'content-type': 'application/json' })
					.end(JSON.stringify(err('unauthorized', 'missing or wrong token')));
			const body = text === '' ? undefined : JSON.parse(text);
			if (path === '/api/campaigns' && req.method === 'GET')
				return send(res, 200, {
					campaigns: [...campaigns.values()].map((c) => ({
						name: c.status.name,
						state: c.status.state,
					})),
				});
			const m =
				/^\/api\/campaigns\/([^/]+)(?:\/(pages)\/(\d+)|\/(start|pause|resume|cancel|report|preview))?$/.exec(
					path,
				);
			if (!m) return send(res, 404, err('not_found', `no route ${path}`));
			const name = decodeURIComponent(m[1]);
			const campaign = campaigns.get(name);
			if (req.method === 'PUT' && !m[2] && !m[4]) {
				const { settings, problems } = checkCampaignSettings(body);
				if (!settings)
					return send(
						res,
						400,
						err('invalid', problems[0].message, { field: problems[0].field, problems }),
					);
				if (campaign) {
					const differences = settingDifferences(campaign.status.settings, settings);
					if (differences.length > 0)
						return send(
							res,
							409,
							err(
								'conflict',
								`campaign "${name}" exists with other settings: ${differences.map((d) => d.setting).join(', ')}`,
								{ differences },
							),
						);
					return send(res, 200, { campaign: campaign.status });
				}
				const status: CampaignStatus = {
					name,
					state: 'draft',
					settings: settings as CampaignSettings,
					createdAt: new Date().toISOString(),
					counts: emptyCampaignCounts(),
				};
				campaigns.set(name, { status, pages: new Map() });
				return send(res, 201, { campaign: status });
			}
			if (!campaign) return send(res, 404, err('not_found', `no campaign "${name}"`));
			if (req.method === 'DELETE' && !m[2] && !m[4]) {
				if (campaign.status.state === 'sending' || campaign.status.state === 'paused')
					return send(
						res,
						409,
						err(
							'conflict',
							`campaign "${name}" is ${campaign.status.state}: cancel it first, then delete it`,
						),
					);
				campaigns.delete(name);
				return send(res, 200, { deleted: { name, state: campaign.status.state } });
			}
			if (m[2] === 'pages' && req.method === 'PUT') {
				const page = Number(m[3]);
				const content = JSON.stringify(body.recipients);
				if (campaign.status.state !== 'draft')
					return send(
						res,
						409,
						err('started', `campaign "${name}" has started: it takes no more recipients`),
					);
				const before = campaign.pages.get(page);
				if (before !== undefined && before !== content)
					return send(res, 409, err('page_conflict', `page ${page} holds other recipients`));
				campaign.pages.set(page, content);
				const total = [...campaign.pages.values()].reduce((n, p) => n + JSON.parse(p).length, 0);
				return send(res, 200, {
					page,
					recipients: body.recipients.length,
					pages: campaign.pages.size,
					totalRecipients: total,
					...(before ? { unchanged: true } : {}),
				});
			}
			if (m[4] === 'start' && req.method === 'POST') {
				if (campaign.status.state !== 'draft') return send(res, 200, { campaign: campaign.status });
				const missing = Array.from({ length: body?.pages ?? 0 }, (_, i) => i + 1).filter(
					(p) => !campaign.pages.has(p),
				);
				if (missing.length > 0)
					return send(
						res,
						409,
						err('pages_missing', `pages missing: ${missing.join(', ')}`, { missing }),
					);
				const recipients = [...campaign.pages.values()].reduce(
					(n, p) => n + JSON.parse(p).length,
					0,
				);
				campaign.status = {
					...campaign.status,
					state: 'sending',
					startedAt: new Date().toISOString(),
					counts: { ...campaign.status.counts, recipients, pending: recipients },
				};
				return send(res, 202, { campaign: campaign.status });
			}
			if ((m[4] === 'pause' || m[4] === 'resume' || m[4] === 'cancel') && req.method === 'POST') {
				const state = m[4] === 'pause' ? 'paused' : m[4] === 'resume' ? 'sending' : 'cancelled';
				campaign.status = { ...campaign.status, state };
				return send(res, 200, { campaign: campaign.status });
			}
			if (m[4] === 'preview') {
				const all = [...campaign.pages.values()].flatMap(
					(p) => JSON.parse(p) as Record<string, string>[],
				);
				const render = (r: Record<string, string>) =>
					campaign.status.settings.text.replace(/\{\{\s*([^{}]+?)\s*\}\}/g, (_m, k: string) =>
						String(r[k]),
					);
				const samples = all.slice(0, 3).map((r, i) => ({
					line: i + 2,
					recipient: i + 1,
					to: r.phone,
					text: render(r),
					segments: 1,
				}));
				return send(res, 200, {
					recipients: all.length,
					valid: all.length,
					invalid: 0,
					duplicates: 0,
					suppressed: 0,
					capped: 0,
					segments: all.length,
					messages: all.length,
					problems: [],
					samples,
				});
			}
			if (m[4] === 'report') return send(res, 200, { name, summary: campaign.status.counts });
			if (req.method === 'GET' && !m[2] && !m[4])
				return send(res, 200, { campaign: campaign.status });
			send(res, 404, err('not_found', 'no route'));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		token,
		campaigns,
		log,
		failNext: (path, status, times = 1) => failures.set(path, { status, times }),
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}
