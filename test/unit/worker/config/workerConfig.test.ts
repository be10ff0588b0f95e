import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../../worker/src/config/configError';
import { loadWorkerConfig } from '../../../../worker/src/config/loadWorkerConfig';
import { configuredSpec } from '../../../../worker/src/daemon/campaigns/configuredSpec';
import { tempDir } from '../../../support/tempDir';

const SID = '11111111-1111-4111-8111-111111111111';
const dir = tempDir('cloudtel-config-');
let n = 0;

function write(text: string, ext = 'yaml'): string {
	const path = join(dir, `c${n++}.${ext}`);
	writeFileSync(path, text);
	return path;
}

function problems(text: string, env: NodeJS.ProcessEnv = {}, ext = 'yaml'): string[] {
	try {
		loadWorkerConfig(write(text, ext), env);
	} catch (error) {
		expect(error).toBeInstanceOf(ConfigError);
		expect((error as ConfigError).exitCode).toBe(2);
		return (error as ConfigError).problems;
	}
	throw new Error('the config was accepted');
}

const BASE = `
provider: { baseUrl: "http://127.0.0.1:4010", accountSid: AC1, authToken: tok }
server: { publicUrl: "https://worker.example.com", secret: "0123456789abcdef" }
`;

function campaign(fields: Record<string, unknown> = {}): string {
	return `  - ${JSON.stringify({ name: 'c', cron: '0 9 * * 1', csv: 'a.csv', property: SID, text: 'hi', ...fields })}\n`;
}

describe('worker config', () => {
	it('names the path of every problem, all at once', () => {
		const out = problems(
			`${BASE}campaigns:\n${campaign()}${campaign({ name: 'd' })}${campaign({ name: 'e', cron: '61 * * * *', timeZone: 'Mars/Olympus' })}`,
		);
		expect(out).toEqual([
			expect.stringMatching(/^campaigns\[2\]\.cron: must be a cron expression/),
			expect.stringMatching(/^campaigns\[2\]\.timeZone: must be an IANA time zone/),
		]);
	});

	it('refuses a campaign maxCost without the pricePerSegment that counts it', () => {
		expect(problems(`${BASE}campaigns:\n${campaign({ maxCost: 5 })}`)).toEqual([
			'campaigns[0].maxCost: needs pricePerSegment: the spend cap counts segments at that price',
		]);
		const ok = `${BASE}campaigns:\n${campaign({ maxCost: 5, pricePerSegment: 0.05 })}`;
		expect(loadWorkerConfig(write(ok), {}).campaigns[0]).toMatchObject({ maxCost: 5 });
	});

	it('takes a campaign maxFailureRate from 0 to 1, naming it when out of range', () => {
		expect(problems(`${BASE}campaigns:\n${campaign({ maxFailureRate: 1.5 })}`)).toEqual([
			expect.stringMatching(/^campaigns\[0\]\.maxFailureRate: /),
		]);
		const ok = `${BASE}campaigns:\n${campaign({ maxFailureRate: 0 })}`;
		expect(loadWorkerConfig(write(ok), {}).campaigns[0]).toMatchObject({ maxFailureRate: 0 });
	});

	it('takes a campaign frequencyCap of N/PERIOD, naming it when it is not one', () => {
		expect(problems(`${BASE}campaigns:\n${campaign({ frequencyCap: '1/day' })}`)).toEqual([
			'campaigns[0].frequencyCap: must be N/PERIOD such as 1/24h or 3/7d (got "1/day")',
		]);
		const ok = `${BASE}campaigns:\n${campaign({ frequencyCap: '3/7d' })}`;
		expect(loadWorkerConfig(write(ok), {}).campaigns[0]).toMatchObject({ frequencyCap: '3/7d' });
	});

	it('refuses limits.dailyMaxCost without the pricePerSegment that counts it', () => {
		expect(problems(`${BASE}limits: { dailyMaxCost: 50 }\n`)).toEqual([
			'limits.dailyMaxCost: needs pricePerSegment: the daily cap counts segments at that price',
		]);
		const ok = `${BASE}limits: { dailyMaxCost: 50, pricePerSegment: 0.05, timeZone: Australia/Sydney }\n`;
		expect(loadWorkerConfig(write(ok), {}).limits).toMatchObject({ dailyMaxCost: 50 });
	});

	it('refuses unknown settings by their path, as typos', () => {
		expect(problems(`${BASE}campaigns:\n${campaign({ crn: 'x' })}`)).toEqual([
			'campaigns[0].crn: is not a setting here (a typo?)',
		]);
		expect(problems(`${BASE}smpt: {}`)).toEqual(['smpt: is not a setting here (a typo?)']);
	});

	it('says which environment variable can supply a missing credential', () => {
		const out = problems(`server: { publicUrl: "https://w.example.com" }`);
		expect(out).toContain(
			'provider.authToken: is required (here, or CLOUDTEL_AUTH_TOKEN in the environment)',
		);
		expect(out).toContain(
			'provider.baseUrl: is required (here, or CLOUDTEL_BASE_URL in the environment)',
		);
		expect(out).toContain(
			'server.secret: is required (here, or CLOUDTEL_CALLBACK_SECRET in the environment)',
		);
	});

	it('takes credentials and secrets from the environment; the file wins', () => {
		const config = loadWorkerConfig(
			write(
				`provider: { accountSid: FROMFILE }\nserver: { publicUrl: "https://w.example.com" }\nsmtp: { host: mail, from: a@example.com, user: u }`,
			),
			{
				CLOUDTEL_BASE_URL: 'http://127.0.0.1:1',
				CLOUDTEL_ACCOUNT_SID: 'FROMENV',
				CLOUDTEL_AUTH_TOKEN: 'tokenvalue',
				CLOUDTEL_CALLBACK_SECRET: 'a-secret-of-16-chars',
				CLOUDTEL_SMTP_PASSWORD: 'pw',
			},
		);
		expect(config.provider).toEqual({
			baseUrl: 'http://127.0.0.1:1',
			accountSid: 'FROMFILE',
			authToken: 'tokenvalue',
		});
		expect(config.server.secret).toBe('a-secret-of-16-chars');
		expect(config.smtp?.password).toBe('pw');
	});

	it('takes an API token of 16 characters or more, from the file or CLOUDTEL_API_TOKEN, and refuses a shorter one without printing it', () => {
		expect(loadWorkerConfig(write(BASE)).server.apiToken).toBeUndefined();
		expect(
			loadWorkerConfig(write(BASE), { CLOUDTEL_API_TOKEN: 'api-token-0123456789' }).server.apiToken,
		).toBe('api-token-0123456789');
		const base = BASE.replace(
			'secret: "0123456789abcdef"',
			'secret: "0123456789abcdef", apiToken: "short-token"',
		);
		const out = problems(base);
		expect(out).toEqual([
			expect.stringMatching(/^server\.apiToken: must be at least 16 characters/),
		]);
		expect(out.join('\n')).not.toContain('short-token');
	});

	it('does not invent an SMTP section from an environment password', () => {
		const config = loadWorkerConfig(write(BASE), { CLOUDTEL_SMTP_PASSWORD: 'pw' });
		expect(config.smtp).toBeUndefined();
	});

	it('reads JSON too, and paths relative to the config file', () => {
		const config = loadWorkerConfig(
			write(
				JSON.stringify({
					provider: { baseUrl: 'http://127.0.0.1:1', accountSid: 'A', authToken: 'T' },
					server: { publicUrl: 'http://w.example.com', secret: '0123456789abcdef' },
					db: 'w.db',
					campaigns: [{ name: 'c', cron: '* * * * *', csv: 'list.csv', property: SID, text: 'x' }],
				}),
				'json',
			),
		);
		expect(config.db).toBe(join(dir, 'w.db'));
		expect(config.campaigns[0].csv).toBe(join(dir, 'list.csv'));
		expect(config.server.port).toBe(8080);
		expect(config.outbox.maxAttempts).toBeGreaterThan(1);
	});

	it('reports broken YAML and JSON with where', () => {
		expect(problems('provider: [unclosed')[0]).toMatch(/^line \d+:/);
		expect(problems('{"provider": ', {}, 'json')[0]).toMatch(/^not valid JSON/);
	});

	it('checks reply rules: patterns, actions, and what they need', () => {
		const out = problems(`${BASE}replies:
  - match: { regex: "(", sender: "0412" }
    actions: [{ type: forwardEmail, to: bad }, { type: carrierPigeon }]
  - actions: []
`);
		expect(out).toEqual([
			expect.stringMatching(/^replies\[0\]\.match\.regex: must be a regular expression/),
			expect.stringMatching(/^replies\[0\]\.match\.sender: must be an E\.164 number/),
			'replies[0].actions[0].to: must be an e-mail address',
			'replies[0].actions[1].type: must be one of forwardSms, forwardEmail, post, optOut',
			'replies[1].actions: must list at least one action',
		]);
		expect(
			problems(`${BASE}replies:\n  - actions: [{ type: forwardEmail, to: a@example.com }]\n`),
		).toEqual(['replies[0].actions[0]: forwards by e-mail, so the config needs an smtp section']);
	});

	it('refuses what the provider would: replies to a fixed sender, two campaigns of one name', () => {
		const out = problems(
			`${BASE}campaigns:\n${campaign({ from: 'SHOP', replies: true })}${campaign({ sendWindow: '09:00-17:00' })}`,
		);
		expect(out).toEqual([
			expect.stringMatching(/^campaigns\[0\]\.replies: replies come only to a leased sender/),
			'campaigns[1].name: "c" is already the name of campaigns[0]',
			'campaigns[1].sendWindow: needs the time zone it is in: give timeZone or timeZoneColumn',
		]);
	});

	it("accepts the example config, whose ledger is CLOUDTEL_DB's, the CLI's", () => {
		const examples = join(__dirname, '../../../../examples');
		const config = loadWorkerConfig(join(examples, 'worker.config.yaml'), {
			HOME: '/home/marketing',
			CLOUDTEL_ACCOUNT_SID: 'A',
			CLOUDTEL_AUTH_TOKEN: 'T',
			CLOUDTEL_CALLBACK_SECRET: '0123456789abcdef',
			CLOUDTEL_DB: '/home/marketing/cloudtel.db',
		});
		expect(config.db).toBe('/home/marketing/cloudtel.db');
		expect(config.campaigns[0].csv).toBe(join(examples, 'demo-campaign.csv'));
		expect(config.campaigns.map((c) => c.name)).toEqual(['weekly-offer']);
		expect(config.replies.length).toBeGreaterThan(2);
	});

	it('says in plain words what a wrong value should be, one line per path, never twice', () => {
		const out = problems(`
provider: { baseUrl: 5, accountSid: [AC1], authToken: tok }
server: { publicUrl: "https://worker.example.com", secret: "0123456789abcdef", port: -5.5 }
outbox: { concurrency: "four" }
campaigns:
${campaign({ receipts: 'yes', batchSize: 0 })}replies:
  - match: { keyword: 5, sender: ["+61491570156", 7, "0412"] }
    actions: [{ type: optOut }]
`);
		expect(out).toEqual([
			'provider.baseUrl: must be text, not the number 5',
			'provider.accountSid: must be text, not a list',
			'server.port: must be a whole number, not the number -5.5',
			'outbox.concurrency: must be a number, not text ("four")',
			'campaigns[0].batchSize: must be at least 1',
			'campaigns[0].receipts: must be true or false, not text ("yes")',
			'replies[0].match.keyword: must be text or a list of them, not the number 5',
			'replies[0].match.sender[1]: must be text, not the number 7',
			'replies[0].match.sender[2]: must be an E.164 number: + then 8 to 15 digits, the first not 0',
		]);
		expect(out.join('\n')).not.toMatch(/Invalid input|expected \w+, received|Too small/);
		expect(new Set(out.map((l) => l.split(':')[0])).size).toBe(out.length);
	});

	it('keeps server.maxConnectionsPerClient (64 by default) within maxConnections', () => {
		expect(loadWorkerConfig(write(BASE), {}).server.maxConnectionsPerClient).toBe(64);
		// A lower maxConnections alone lowers the default with it: such a config loaded before.
		expect(
			loadWorkerConfig(
				write(
					BASE.replace(
						'secret: "0123456789abcdef"',
						'secret: "0123456789abcdef", maxConnections: 4',
					),
				),
				{},
			).server.maxConnectionsPerClient,
		).toBe(4);
		expect(
			problems(
				BASE.replace(
					'secret: "0123456789abcdef"',
					'secret: "0123456789abcdef", maxConnections: 32, maxConnectionsPerClient: 33',
				),
			),
		).toEqual(['server.maxConnectionsPerClient: must be at most maxConnections (32)']);
	});

	it('takes rate 0 as no limit, as campaign run --rate 0 does, and refuses a negative rate', () => {
		expect(
			loadWorkerConfig(write(`${BASE}campaigns:\n${campaign({ rate: 0 })}`), {}).campaigns[0].rate,
		).toBe(0);
		expect(problems(`${BASE}campaigns:\n${campaign({ rate: -5 })}`)).toEqual([
			'campaigns[0].rate: must be 0 (no limit) or from 0.01 to 1,000,000 messages a second',
		]);
		// One message in four months, on a timer Node cannot hold: a typo.
		expect(problems(`${BASE}campaigns:\n${campaign({ rate: 1e-7 })}`)).toEqual([
			'campaigns[0].rate: must be 0 (no limit) or from 0.01 to 1,000,000 messages a second',
		]);
		expect(
			loadWorkerConfig(write(`${BASE}campaigns:\n${campaign({ rate: 0.01 })}`), {}).campaigns[0]
				.rate,
		).toBe(0.01);
	});

	it('adds opt-out and opt-in keywords to the built-in ones, refusing one that is both', () => {
		const config = loadWorkerConfig(
			write(`${BASE}optOut: { keywords: [ARRET, "no more"], optInKeywords: [RESUME] }`),
			{},
		);
		expect(config.optOut).toEqual({
			keywords: ['ARRET', 'no more'],
			optInKeywords: ['RESUME'],
			reasonableMeans: 'suppress',
		});
		expect(loadWorkerConfig(write(BASE), {}).optOut).toEqual({
			keywords: [],
			optInKeywords: [],
			reasonableMeans: 'suppress',
		});
		expect(problems(`${BASE}optOut: { reasonableMeans: ask }`)).toEqual([
			expect.stringMatching(/^optOut\.reasonableMeans: .*"suppress".*"review"/),
		]);
		expect(problems(`${BASE}optOut: { optInKeywords: [RESUME, "..."] }`)).toEqual([
			'optOut.optInKeywords[1]: must have a letter or digit',
		]);
		expect(problems(`${BASE}optOut: { keywords: [start], optInKeywords: ["Stop!"] }`)).toEqual([
			'optOut.keywords[0]: "start" is also an opt-in keyword ("START")',
			'optOut.optInKeywords[0]: "Stop!" is also an opt-out keyword ("STOP")',
		]);
	});
});

describe('worker config: db', () => {
	it('takes a Postgres URL as it is, from the config or from CLOUDTEL_DB, and a SQLite file beside the config', () => {
		expect(
			loadWorkerConfig(write(`${BASE}db: "postgresql://app:pw@db.internal:5433/cloudtel"`), {}).db,
		).toBe('postgresql://app:pw@db.internal:5433/cloudtel');
		expect(
			loadWorkerConfig(write(BASE), { CLOUDTEL_DB: 'postgres://app@db.internal/cloudtel' }).db,
		).toBe('postgres://app@db.internal/cloudtel');
		expect(
			loadWorkerConfig(write(`${BASE}db: mine.db`), {
				CLOUDTEL_DB: 'postgres://app@db.internal/cloudtel',
			}).db,
		).toBe(join(dir, 'mine.db'));
		expect(loadWorkerConfig(write(BASE), {}).db).toBe(join(dir, 'cloudtel.db'));
	});

	it('names a malformed Postgres URL at db', () => {
		expect(problems(`${BASE}db: "postgres://app@:5432/x"`)).toEqual([
			expect.stringMatching(/^db: not a valid Postgres URL/),
		]);
		expect(problems(`${BASE}db: "postgres://app@db.internal:99999/x"`)).toEqual([
			expect.stringMatching(/^db: .*not a valid Postgres URL|^db: the Postgres URL's port/),
		]);
	});

	it("takes a campaign's encoding and smart encoding, as campaign run does, and names a wrong encoding", () => {
		const config = loadWorkerConfig(
			write(`${BASE}campaigns:\n${campaign({ encoding: 'windows-1252', smartEncoding: true })}`),
			{},
		);
		expect(configuredSpec(config.campaigns[0], 'c-1')).toMatchObject({
			encoding: 'windows-1252',
			smartEncoding: true,
		});
		expect(problems(`${BASE}campaigns:\n${campaign({ encoding: 'ebcdic' })}`).join('\n')).toMatch(
			/campaigns\[0\]\.encoding/,
		);
	});
	it('events: a URL, headers and the types it takes, every problem named by its path, never a secret value', () => {
		const ok = loadWorkerConfig(
			write(
				`${BASE}events: { url: "https://n8n.example.com/webhook/x/cloudtel?secret=s3cret", headers: { X-CloudTel-Secret: abc } }\ncampaigns:\n${campaign({ events: 'https://n8n.example.com/webhook/y' })}`,
			),
			{},
		);
		expect(ok.events).toEqual({
			url: 'https://n8n.example.com/webhook/x/cloudtel?secret=s3cret',
			headers: { 'X-CloudTel-Secret': 'abc' },
			types: [
				'campaign.started',
				'campaign.finished',
				'campaign.paused',
				'campaign.variant_decided',
				'reply',
				'optout',
				'optout.review',
				'click',
			],
			maxAge: '3d',
		});
		expect(ok.campaigns[0].events).toBe('https://n8n.example.com/webhook/y');
		const out = problems(
			`${BASE}events: { url: "ftp://x?secret=hidden-value", types: [reply, receipt], colour: red }\ncampaigns:\n${campaign({ events: 'not a url' })}`,
		);
		expect(out).toEqual(
			expect.arrayContaining([
				expect.stringMatching(/^events\.url: /),
				expect.stringMatching(
					/^events\.types\[1\]: must be one of campaign\.started, campaign\.finished, campaign\.paused, campaign\.variant_decided, reply, optout/,
				),
				'events.colour: is not a setting here (a typo?)',
				expect.stringMatching(/^campaigns\[0\]\.events: /),
			]),
		);
		expect(out.join('\n')).not.toContain('hidden-value');
		expect(out.join('\n')).not.toContain('not a url');
		expect(problems(`${BASE}events: { url: "https://n8n.example.com/w", types: [] }`)).toEqual([
			expect.stringMatching(/^events\.types: must name at least one of/),
		]);
	});
});
