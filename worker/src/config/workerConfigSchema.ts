import { PERMANENT_FAILURE_CODES } from '../settings/failureCodes';
import { dbLocation, isPostgresUrl } from '../storage/dbLocation';
import cron from 'node-cron';
import { z } from 'zod';
import {
	BATCH_MAX_MESSAGES,
	CAMPAIGN_EVENT_TYPES,
	CAMPAIGN_NAME_PATTERN,
	CAMPAIGN_NAME_RULE,
	campaignRateProblem,
	DURATION_EXAMPLES,
	durationMs,
	isBlank,
	isE164,
	isEmail,
	isSid,
	parseFrequencyCap,
	isWebhookUri,
	MIN_API_TOKEN_LENGTH,
	MAX_PRICE_PER_SEGMENT,
	senderKind,
	checkForwardSender,
	TEXT_MAX_CHARACTERS,
	type CampaignEventType,
} from '../../../api';
import { parseSendWindow } from '../schedule/sendWindow';
import { SINGLE_BYTE_ENCODINGS } from '../csv/csvDecoder';

const ENCODING_NAMES = Object.keys(SINGLE_BYTE_ENCODINGS) as [string, ...string[]];
import { resolveTimeZone } from '../schedule/timeZone';
import { keywordWords, OPT_IN_KEYWORDS, OPT_OUT_KEYWORDS } from './optOutKeywords';
import { compileReplyPattern } from './replyPattern';
import { allowEntry } from './outboundAllow';
import { signingConfig } from './signingConfig';
import { linkBaseProblem } from '../settings/linkBase';

/** One value or a list of them; always a list after parsing. */
function oneOrMany<T extends z.ZodType>(item: T) {
	return z
		.union([item, z.array(item).min(1)])
		.transform((v) => (Array.isArray(v) ? v : [v]) as z.output<T>[]);
}

const DAY_MS = 24 * 60 * 60 * 1000;
const text = z.string().trim().min(1, 'must not be blank');
const e164 = z
	.string()
	.refine(isE164, 'must be an E.164 number: + then 8 to 15 digits, the first not 0');
const email = z.string().refine(isEmail, 'must be an e-mail address');
const httpUrl = z.string().refine(isWebhookUri, 'must be an absolute http or https URL');
const sid = z.string().refine(isSid, 'must be a Sid (a lower-case UUID)');
const port = z.number().int().min(0).max(65535);
const timeZone = z
	.string()
	.refine(
		(v) => resolveTimeZone(v) !== undefined,
		'must be an IANA time zone (such as "Australia/Sydney") or a Windows time zone ID',
	);

/** The campaign-name rule of api/ (campaignName.ts), which leaves room for each run's tick. */
const campaignName = z.string().regex(CAMPAIGN_NAME_PATTERN, CAMPAIGN_NAME_RULE);

const provider = z.strictObject({
	baseUrl: httpUrl,
	accountSid: text,
	authToken: text,
});

const server = z
	.strictObject({
		publicUrl: httpUrl,
		port: port.default(8080),
		host: z.string().default('0.0.0.0'),
		/** The secret in the callback URLs of every message sent from now on. */
		secret: z
			.string()
			.min(
				16,
				'must be at least 16 characters: it is all that stands between the internet and your suppression list',
			),
		/** The secret before the last rotation, still taken from callbacks of messages sent with it (README: Security). */
		previousSecret: z.string().min(16, 'must be at least 16 characters, as secret').optional(),
		/** Opens the campaign reports (GET /campaigns); without it, the worker serves no report. */
		reportToken: z
			.string()
			.min(16, 'must be at least 16 characters: it opens every campaign report')
			.optional(),
		/** Opens the campaign API (/api/...); without it, every /api path is 404. */
		apiToken: z
			.string()
			.min(
				MIN_API_TOKEN_LENGTH,
				`must be at least ${MIN_API_TOKEN_LENGTH} characters: it creates, starts and cancels campaigns`,
			)
			.optional(),
		/** The largest CSV one `PUT /api/campaigns/{name}/csv` may send; pages of JSON are the way for more. */
		apiMaxCsvBytes: z
			.number()
			.int()
			.min(1024)
			.max(1024 * 1024 * 1024)
			.default(64 * 1024 * 1024),
		/** Callbacks are a few hundred bytes; anything near this is not one. */
		maxBodyBytes: z
			.number()
			.int()
			.min(1024)
			.max(10 * 1024 * 1024)
			.default(64 * 1024),
		/** Open connections at once; one more is answered 503 and closed. */
		maxConnections: z.number().int().min(1).max(1_000_000).default(1024),
		/**
		 * Open connections at once from one address; one more is closed at once, so one address
		 * cannot take them all. By default 64, or maxConnections when that is lower.
		 */
		maxConnectionsPerClient: z.number().int().min(1).max(1_000_000).optional(),
	})
	.transform((s) => ({
		...s,
		maxConnectionsPerClient: s.maxConnectionsPerClient ?? Math.min(64, s.maxConnections),
	}));

const smtp = z.strictObject({
	host: text,
	port: port.default(587),
	/** TLS from the first byte (port 465); otherwise STARTTLS, which the server must offer. */
	secure: z.boolean().optional(),
	/** Plain SMTP, for a relay on this machine only: credentials and replies would otherwise cross the network in clear. */
	allowInsecure: z.boolean().default(false),
	user: z.string().optional(),
	password: z.string().optional(),
	from: email,
});

const log = z.strictObject({
	/** debug adds what no one need act on: clients that went away mid-request. */
	level: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
	/** Phone numbers in log lines: masked (+6141****103) unless `full`. */
	phoneNumbers: z.enum(['masked', 'full']).default('masked'),
});

const outbox = z.strictObject({
	maxAttempts: z.number().int().min(1).max(1000).default(12),
	// A day at most: a timer holds at most 2^31 - 1 ms (about 24.8 days), and a forward waits no longer than that is any use.
	backoffMs: z.number().int().min(10).max(DAY_MS).default(1000),
	maxBackoffMs: z
		.number()
		.int()
		.min(10)
		.max(DAY_MS)
		.default(10 * 60 * 1000),
	concurrency: z.number().int().min(1).max(64).default(4),
});

/** Where callbacks go while the store cannot take them (see CallbackIntake). */
const spool = z.strictObject({
	/** A folder of its own; by default beside the SQLite file, or under ~/.cloudtel/spool for Postgres. */
	dir: text.optional(),
	/** Taken on the disk at start, so a disk that fills up later cannot refuse a callback. */
	maxBytes: z
		.number()
		.int()
		.min(64 * 1024)
		.max(1024 * 1024 * 1024)
		.default(8 * 1024 * 1024),
});

const campaign = z
	.strictObject({
		name: campaignName,
		cron: z
			.string()
			.refine(
				(v) => cron.validate(v),
				'must be a cron expression such as "0 9 * * 1" (minute hour day month weekday, an optional seconds field first)',
			),
		/** The zone the cron expression is read in; the send window's too, unless timeZoneColumn. */
		timeZone: timeZone.optional(),
		/**
		 * A tick missed while the worker or its database was down runs when they are back if it
		 * is at most this old (`30m`, `24h`, `7d`): the latest such tick only. `none` skips it.
		 */
		catchUp: z
			.string()
			.refine(
				(v) => v === 'none' || durationMs(v) !== undefined,
				`must be none, or a duration such as ${DURATION_EXAMPLES}`,
			)
			.default('24h'),
		csv: text,
		property: sid,
		text: text,
		from: z
			.string()
			.refine(
				(v) => senderKind(v) !== undefined,
				'must be an E.164 number, an alphanumeric ID of 1 to 11 characters, or blank for a leased number',
			)
			.optional(),
		toColumn: text.optional(),
		defaultCountry: z
			.string()
			.regex(/^[A-Za-z]{2}$/, 'must be a two-letter country code')
			.optional(),
		timeZoneColumn: text.optional(),
		/** The CSV's code page when it is not UTF-8, as `campaign run --encoding`. */
		encoding: z.enum(ENCODING_NAMES).optional(),
		/** Typographic characters sent as their GSM-7 equivalents, as `campaign run --smart-encoding`. */
		smartEncoding: z.boolean().optional(),
		sendWindow: z
			.string()
			.refine((v) => {
				try {
					parseSendWindow(v);
					return true;
				} catch {
					return false;
				}
			}, 'must look like 09:00-20:00')
			.optional(),
		/** Messages per second; 0 for no limit, as `campaign run --rate 0`. */
		rate: z
			.number()
			.superRefine((v, ctx) => {
				const problem = campaignRateProblem(v);
				if (problem) ctx.addIssue({ code: 'custom', message: problem });
			})
			.optional(),
		batchSize: z.number().int().min(1).max(BATCH_MAX_MESSAGES).optional(),
		/** Every http(s) URL of the text becomes a tracked link at `links.baseUrl`, as `campaign run --track-links`. */
		trackLinks: z.boolean().optional(),
		/** Variants, as `campaign run --variant`, `--test-share`, `--winner-by`, `--decide-after`. */
		variants: z.array(text).max(4).optional(),
		testShare: z.number().gt(0).max(1).optional(),
		winnerBy: z.enum(['delivered', 'replies', 'clicks', 'optouts']).optional(),
		decideAfter: z
			.string()
			.refine((v) => durationMs(v) !== undefined, `must be a duration such as ${DURATION_EXAMPLES}`)
			.optional(),
		/** Send only to numbers of these countries, as `campaign run --countries`. */
		countries: z
			.array(z.string().regex(/^[A-Za-z]{2}$/, 'must be a two-letter country code'))
			.min(1)
			.optional(),
		/** Send to fixed-line-only numbers too, as `campaign run --allow-landlines`. */
		allowLandlines: z.boolean().optional(),
		/** Each run's spend cap, as `campaign run --max-cost` (needs pricePerSegment). */
		maxCost: z.number().min(0).optional(),
		/** The price of one segment, for maxCost. */
		pricePerSegment: z.number().min(0).max(MAX_PRICE_PER_SEGMENT).optional(),
		/** The failure-rate brake's fraction, as `campaign run --max-failure-rate` (default 0.3; 0 off). */
		maxFailureRate: z.number().min(0).max(1).optional(),
		/** At most N messages to one number within a period, across campaigns, as `campaign run --frequency-cap`. */
		frequencyCap: z
			.string()
			.superRefine((v, ctx) => {
				const cap = parseFrequencyCap(v);
				if (typeof cap === 'string') ctx.addIssue({ code: 'custom', message: cap });
			})
			.optional(),
		/** Ask for delivery receipts at this worker's receipt URL. */
		receipts: z.boolean().default(true),
		/**
		 * Send replies to this worker. Replies come only to a leased sender, so this defaults
		 * to true without `from` and cannot be true with one.
		 */
		replies: z.boolean().optional(),
		/** This campaign's own events URL: its campaign events (and its replies and opt-outs) go there instead of to `events.url`. */
		events: httpUrl.optional(),
		/** Signs what goes to this campaign's own events URL, instead of the worker-wide `signing`. */
		signing: signingConfig.optional(),
	})
	.refine((c) => c.maxCost === undefined || c.pricePerSegment !== undefined, {
		message: 'needs pricePerSegment: the spend cap counts segments at that price',
		path: ['maxCost'],
	});

const match = z.strictObject({
	keyword: oneOrMany(text).optional(),
	regex: z
		.string()
		.refine(
			(v) => compileReplyPattern(v) !== undefined,
			'must be a regular expression, bare or as /pattern/flags',
		)
		.optional(),
	campaign: oneOrMany(text).optional(),
	sender: oneOrMany(e164).optional(),
});

const action = z.discriminatedUnion(
	'type',
	[
		z.strictObject({
			type: z.literal('forwardSms'),
			to: e164,
			from: z
				.string()
				.refine(
					(v) => checkForwardSender('from', v) === undefined,
					'must be an E.164 number or an alphanumeric ID of 1 to 11 characters',
				)
				.optional(),
			/** Defaults to the property the reply came in on. */
			property: sid.optional(),
		}),
		z.strictObject({
			type: z.literal('forwardEmail'),
			to: oneOrMany(email),
			from: email.optional(),
			subject: text.optional(),
		}),
		z.strictObject({
			type: z.literal('post'),
			url: httpUrl,
			headers: z.record(z.string(), z.string()).optional(),
			signing: signingConfig.optional(),
		}),
		z.strictObject({ type: z.literal('optOut') }),
	],
	{ error: 'must be one of forwardSms, forwardEmail, post, optOut' },
);

/**
 * `forward.n8n`: every receipt and reply (or the `events` named) handed on, once each, to the
 * CloudTel Trigger of an n8n: its production URL, with `?secret=...` when it has a Secret
 * (or the secret in `headers` as X-CloudTel-Secret).
 */
const forward = z.strictObject({
	n8n: z
		.strictObject({
			url: httpUrl,
			headers: z.record(z.string(), z.string()).optional(),
			events: z
				.array(z.enum(['receipt', 'reply'], { error: 'must be receipt or reply' }))
				.min(1, 'must name receipt, reply or both')
				.default(['receipt', 'reply']),
			signing: signingConfig.optional(),
		})
		.optional(),
});

/**
 * `events`: campaign.started, campaign.finished, campaign.paused, reply and optout POSTed
 * to a URL (the CloudTel Trigger's, say), once each through the outbox, with their id as
 * Idempotency-Key. `types` limits what goes to this URL (a campaign's own URL gets all of
 * its campaign's). The headers are read from the config when each is sent.
 */
const duration = z
	.string()
	.refine((v) => durationMs(v) !== undefined, `must be a duration such as ${DURATION_EXAMPLES}`);

const events = z.strictObject({
	/** Left out: no worker-wide events URL, the settings below still hold for every delivery. */
	url: httpUrl.optional(),
	headers: z.record(z.string(), z.string()).optional(),
	types: z
		.array(
			z.enum(CAMPAIGN_EVENT_TYPES as [CampaignEventType, ...CampaignEventType[]], {
				error: `must be one of ${CAMPAIGN_EVENT_TYPES.join(', ')}`,
			}),
		)
		.min(1, `must name at least one of ${CAMPAIGN_EVENT_TYPES.join(', ')}`)
		.default([...CAMPAIGN_EVENT_TYPES]),
	signing: signingConfig.optional(),
	/** A delivery by HTTP (event, n8n forward, post) still failing this long after it was queued is marked dead, to be replayed. */
	maxAge: duration.default('3d'),
});

/**
 * `outbound.allow`: hosts (`host` or `host:port`) an API caller's URL (a campaign's
 * `events`) may point at although they are loopback, private or link-local: a local n8n,
 * say. URLs in this config are the operator's and are not checked.
 */
const outbound = z.strictObject({
	allow: z
		.array(
			z
				.string()
				.refine(
					(v) => allowEntry(v) !== undefined,
					'must be a host or host:port, such as 127.0.0.1:5678, [::1]:5678 or n8n.internal',
				),
		)
		.default([]),
});

/**
 * `links`: tracked links (a campaign's `trackLinks`, the API's `trackLinks`). `baseUrl` is
 * where they point (a domain aimed at this worker, or `{publicUrl}/l`); the worker answers
 * `GET {its path}/{token}`. `ttl`: how long a link redirects (then 410). `scanWindowSeconds`:
 * a request this soon after the message was sent, or around its receipt, is a carrier's
 * scanner (kept as a prefetch, not a click).
 */
const links = z.strictObject({
	baseUrl: z
		.string()
		.superRefine((v, ctx) => {
			const problem = linkBaseProblem(v);
			if (problem) ctx.addIssue({ code: 'custom', message: problem });
		})
		.transform((v) => v.replace(/\/+$/, ''))
		.optional(),
	ttl: z
		.string()
		.refine((v) => durationMs(v) !== undefined, `must be a duration such as ${DURATION_EXAMPLES}`)
		.default('90d'),
	scanWindowSeconds: z.number().min(0).max(3600).default(5),
});

/** A keyword of one or more words; punctuation does not count, as it does not in replies. */
const keyword = text.refine((v) => keywordWords(v).length > 0, 'must have a letter or digit');

/** Keywords added to the built-in ones (STOP, UNSUBSCRIBE, ... and START, UNSTOP), never replacing them. */
const optOut = z.strictObject({
	keywords: z.array(keyword).default([]),
	optInKeywords: z.array(keyword).default([]),
	/** A reply that plainly asks to stop without a keyword ("remove me"): opted out at once, or held for a person (`cloudtel optouts review`). */
	reasonableMeans: z.enum(['suppress', 'review']).default('suppress'),
	/** Sent once to a number that opts out, from the number its opt-out answered; not again within 30 days. */
	confirmation: text
		.refine((v) => [...v].length <= TEXT_MAX_CHARACTERS, {
			message: `must be at most ${TEXT_MAX_CHARACTERS} characters, as a message's Text`,
		})
		.optional(),
});

const rule = z.strictObject({
	name: text.optional(),
	match: match.default({}),
	actions: z.array(action).min(1, 'must list at least one action'),
	/** Later rules are looked at too; by default the first matching rule is the last. */
	continue: z.boolean().default(false),
});

export const workerConfigSchema = z
	.strictObject({
		provider,
		/** The SQLite file of the ledger, the callback events and the outbox; or a postgres:// URL that several workers share. */
		db: text.default('cloudtel.db'),
		server,
		smtp: smtp.optional(),
		outbox: outbox.prefault({}),
		log: log.prefault({}),
		spool: spool.prefault({}),
		/** Days processed callback events, settled forwards and finished runs (with their ledger rows) are kept. */
		retentionDays: z.number().positive().default(90),
		campaigns: z.array(campaign).default([]),
		/** The unit of every price here, shown with the costs of the reports this worker serves (AUD, $). */
		currency: z
			.string()
			.regex(/^\S{1,8}$/u, 'must be a code such as AUD or a symbol such as $, at most 8 characters')
			.optional(),
		/** Guardrails across every campaign of the ledger: the day's spend cap (`dailyMaxCost` needs `pricePerSegment`). */
		limits: z
			.strictObject({
				dailyMaxCost: z.number().min(0).optional(),
				pricePerSegment: z.number().min(0).max(MAX_PRICE_PER_SEGMENT).optional(),
				timeZone: z
					.string()
					.refine((v) => resolveTimeZone(v) !== undefined, 'must be an IANA or Windows time zone')
					.optional(),
			})
			.refine((l) => l.dailyMaxCost === undefined || l.pricePerSegment !== undefined, {
				message: 'needs pricePerSegment: the daily cap counts segments at that price',
				path: ['dailyMaxCost'],
			})
			.optional(),
		replies: z.array(rule).default([]),
		optOut: optOut.prefault({}),
		/** Alphanumeric sender IDs registered in Australia's SMS Sender ID Register: a preview warns of any other sent to +61 numbers. */
		senderIds: z.strictObject({ registered: z.array(text).default([]) }).prefault({}),
		/**
		 * Numbers whose receipt says they do not exist are suppressed until a later delivery to
		 * them succeeds: `true` (the default) for PERMANENT_FAILURE_CODES, `{ codes: [...] }` for others, `false` never.
		 */
		suppressPermanentFailures: z
			.union([z.boolean(), z.strictObject({ codes: z.array(text).min(1) })])
			.default(true)
			.transform((v): readonly string[] =>
				v === true ? PERMANENT_FAILURE_CODES : v === false ? [] : v.codes,
			),
		forward: forward.prefault({}),
		events: events.optional(),
		outbound: outbound.prefault({}),
		/** Signs every POST out (Standard Webhooks) whose destination has no `signing` of its own. */
		signing: signingConfig.optional(),
		links: links.prefault({}),
	})
	.superRefine((config, ctx) => {
		if (isPostgresUrl(config.db)) {
			try {
				dbLocation(config.db, 'db');
			} catch (error) {
				ctx.addIssue({
					code: 'custom',
					path: ['db'],
					message: (error as Error).message.replace(/^db: /, ''),
				});
			}
		}
		const seen = new Map<string, number>();
		config.campaigns.forEach((c, i) => {
			const first = seen.get(c.name);
			if (first !== undefined)
				ctx.addIssue({
					code: 'custom',
					path: ['campaigns', i, 'name'],
					message: `"${c.name}" is already the name of campaigns[${first}]`,
				});
			else seen.set(c.name, i);
			if (
				c.sendWindow !== undefined &&
				c.timeZone === undefined &&
				c.timeZoneColumn === undefined
			) {
				ctx.addIssue({
					code: 'custom',
					path: ['campaigns', i, 'sendWindow'],
					message: 'needs the time zone it is in: give timeZone or timeZoneColumn',
				});
			}
			if (c.trackLinks === true && config.links.baseUrl === undefined)
				ctx.addIssue({
					code: 'custom',
					path: ['campaigns', i, 'trackLinks'],
					message:
						'needs links.baseUrl: the address the links point at (a domain aimed at this worker, or {publicUrl}/l)',
				});
			if (c.winnerBy === 'clicks' && c.trackLinks !== true)
				ctx.addIssue({
					code: 'custom',
					path: ['campaigns', i, 'winnerBy'],
					message:
						'clicks needs trackLinks: true: only tracked links are counted (or judge by replies, delivered or optouts)',
				});
			if (c.replies === true && !isBlank(c.from)) {
				ctx.addIssue({
					code: 'custom',
					path: ['campaigns', i, 'replies'],
					message: 'replies come only to a leased sender: leave out from, or set replies to false',
				});
			}
		});
		config.replies.forEach((r, i) => {
			r.actions.forEach((a, j) => {
				if (a.type === 'forwardEmail' && !config.smtp)
					ctx.addIssue({
						code: 'custom',
						path: ['replies', i, 'actions', j],
						message: 'forwards by e-mail, so the config needs an smtp section',
					});
			});
		});
		const optOutWords = new Map(
			[...OPT_OUT_KEYWORDS, ...config.optOut.keywords].map((k) => [keywordWords(k).join(' '), k]),
		);
		const optInWords = new Map(
			[...OPT_IN_KEYWORDS, ...config.optOut.optInKeywords].map((k) => [
				keywordWords(k).join(' '),
				k,
			]),
		);
		config.optOut.keywords.forEach((k, i) => {
			const clash = optInWords.get(keywordWords(k).join(' '));
			if (clash !== undefined)
				ctx.addIssue({
					code: 'custom',
					path: ['optOut', 'keywords', i],
					message: `"${k}" is also an opt-in keyword ("${clash}")`,
				});
		});
		config.optOut.optInKeywords.forEach((k, i) => {
			const clash = optOutWords.get(keywordWords(k).join(' '));
			if (clash !== undefined)
				ctx.addIssue({
					code: 'custom',
					path: ['optOut', 'optInKeywords', i],
					message: `"${k}" is also an opt-out keyword ("${clash}")`,
				});
		});
		if (config.smtp?.allowInsecure && !isLoopback(config.smtp.host)) {
			ctx.addIssue({
				code: 'custom',
				path: ['smtp', 'allowInsecure'],
				message: `is for a relay on this machine (localhost, 127.0.0.1, ::1), not ${config.smtp.host}: use secure, or a server that offers STARTTLS`,
			});
		}
		if (config.server.maxConnectionsPerClient > config.server.maxConnections) {
			ctx.addIssue({
				code: 'custom',
				path: ['server', 'maxConnectionsPerClient'],
				message: `must be at most maxConnections (${config.server.maxConnections})`,
			});
		}
		if (
			config.server.previousSecret !== undefined &&
			config.server.previousSecret === config.server.secret
		) {
			ctx.addIssue({
				code: 'custom',
				path: ['server', 'previousSecret'],
				message: 'is the same as secret: after a rotation it is the old one',
			});
		}
		if (config.smtp && (config.smtp.user === undefined) !== (config.smtp.password === undefined)) {
			ctx.addIssue({
				code: 'custom',
				path: ['smtp', config.smtp.user === undefined ? 'user' : 'password'],
				message: 'user and password go together',
			});
		}
	});

function isLoopback(host: string): boolean {
	return (
		host === 'localhost' ||
		host === '::1' ||
		host === '[::1]' ||
		/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)
	);
}

export type WorkerConfig = z.output<typeof workerConfigSchema>;
export type CampaignConfig = WorkerConfig['campaigns'][number];
export type ReplyRule = WorkerConfig['replies'][number];
export type ReplyAction = ReplyRule['actions'][number];
export type SmtpConfig = NonNullable<WorkerConfig['smtp']>;
export type OutboxConfig = WorkerConfig['outbox'];
export type N8nForwardConfig = NonNullable<WorkerConfig['forward']['n8n']>;
export type EventsConfig = NonNullable<WorkerConfig['events']>;
export type OptOutConfig = WorkerConfig['optOut'];
export type LogConfig = WorkerConfig['log'];
export type LinksConfig = WorkerConfig['links'];
