import { outboundRefusal } from '../outbound/outboundUrl';
import { runOfConfigCampaign } from '../callbacks/4-replies/runName';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import {
	checkCampaignName,
	checkCampaignSettings,
	MAX_CAMPAIGN_COLUMNS,
	checkRecipientPage,
	checkSchedule,
	ErrorCodes,
	MAX_PAGE_NUMBER,
	parsePageNumber,
	settingDifferences,
	type CampaignDeleted,
	type CampaignList,
	type CampaignPreview,
	type CampaignPreviewVariant,
	type CsvAccepted,
	type CampaignSettings,
	type CampaignStatus,
	type PageAccepted,
	type RecipientPage,
	type StartRequest,
} from '../../../../api';
import { columnProblems } from '../../campaign/csvColumns';
import type { VariantForecast } from '../../campaign/campaignSummary';
import { runCampaign } from '../../campaign/runCampaign';
import { readCampaignReport, type CampaignReport } from '../../campaignReport/campaignReport';
import { FatalError, SettingError } from '../../errors';
import type { EvidenceRow } from '../../storage/evidence';
import type { Ledger } from '../../storage/ledger';
import type {
	ApiCampaignRecord,
	ApiCampaignStore,
	PutPageOutcome,
} from '../../storage/apiCampaignStore';
import { runPace } from '../campaigns/campaignRunner';
import { API_SETTING, apiCampaignSpec } from './apiCampaignSpec';
import { ApiError, invalid, notFound } from './apiError';
import type { CampaignEvents } from '../callbacks/5-events/campaignEvents';
import { CampaignControl, eventRun, type CampaignKicker } from './campaignControl';
import { campaignStatusOf } from './campaignStatusOf';
import { receiveCsv } from './csvUpload';
import { csvHeader, unionColumns } from './recipientColumns';
import { recipientRows } from './recipientRows';
import { SilentReporter } from './silentReporter';

export type { CampaignKicker } from './campaignControl';

/** The rows a report lists as not sent: refused by the worker's checks or the provider, or sent without an answer. */
const NOT_SENT = ['invalid', 'rejected', 'uncertain'] as const;

/** One page of the recipients not sent, in line order; `next` is the `notSentAfter` of the next page. */
export interface NotSentPage {
	recipients: { line: number; to?: string; status: string; code?: string; message?: string }[];
	next?: number;
}

/** At most this many missing pages are listed by number in a `pages_missing` refusal. */
const MISSING_LISTED = 1000;

/**
 * The campaign API's behaviour, under its routes (apiRoutes.ts): settings, pages, the
 * life of a campaign, its status, report and preview. Each call is safe to repeat: the
 * same settings, page or start again changes nothing and answers as the first did.
 */
export class ApiCampaigns {
	constructor(
		private readonly store: ApiCampaignStore,
		private readonly ledger: Ledger,
		private readonly runner: CampaignKicker,
		/** Where an uploaded CSV waits while it is read (apiCampaignFiles.ts). */
		private readonly dir: string,
		/** Events out (campaign.started, .paused, .finished), to the campaign's own URL or the worker's. */
		private readonly events?: CampaignEvents,
		/** From the worker's config: the hosts an events URL may point at although inner (outbound.allow). */
		private readonly guard: {
			outboundAllow: readonly string[];
			configCampaigns: readonly string[];
			/** `links.baseUrl`, for a campaign's `trackLinks`. */
			linkBase?: string;
			/** senderIds.registered: a preview warns of another alphanumeric `from` sent to Australia. */
			registeredSenderIds?: readonly string[];
			/** Config `currency` and `limits.pricePerSegment`: the report's cost, as the worker's report pages show it. */
			currency?: string;
			pricePerSegment?: number;
		} = { outboundAllow: [], configCampaigns: [] },
		private readonly now: () => number = Date.now,
	) {
		this.control = new CampaignControl({ ledger, store, runner, events, now });
	}

	/** Pause, resume, cancel and delete, as the CLI's act too (and the dashboard's, through this one). */
	readonly control: CampaignControl;

	private async record(name: string): Promise<ApiCampaignRecord> {
		const bad = checkCampaignName(name);
		if (bad) throw notFound(name);
		const record = await this.store.campaign(name);
		if (!record) throw notFound(name);
		return record;
	}

	private status(record: ApiCampaignRecord): Promise<CampaignStatus> {
		return campaignStatusOf(record, this.store, this.ledger, this.now());
	}

	/** Its end as the API shows it, if it has one: a cancel its run is still settling (the ledger's) is cancelled. */
	private async ended(record: ApiCampaignRecord): Promise<string | undefined> {
		if (record.state === 'finished' || record.state === 'cancelled' || record.state === 'failed')
			return record.state;
		if (record.state === 'draft') return undefined;
		return (await this.ledger.campaign(record.name))?.cancelledBy ? 'cancelled' : undefined;
	}

	async list(): Promise<CampaignList> {
		const all = await this.store.campaignsIn([
			'draft',
			'started',
			'finished',
			'cancelled',
			'failed',
		]);
		// Each state as its status shows it (campaignStatusOf.ts): one reading, whichever view asks.
		const listed = [];
		for (const r of all) listed.push({ name: r.name, state: (await this.status(r)).state });
		return { campaigns: listed.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)) };
	}

	async get(name: string): Promise<CampaignStatus> {
		return this.status(await this.record(name));
	}

	/** 201 when created, 200 when the same settings were given before; 409 naming the differences otherwise. */
	async put(name: string, body: unknown): Promise<{ created: boolean; campaign: CampaignStatus }> {
		const bad = checkCampaignName(name);
		if (bad) throw invalid([bad]);
		const { settings, problems } = checkCampaignSettings(body);
		if (!settings) throw invalid(problems);
		const configCampaign = runOfConfigCampaign(name, this.guard.configCampaigns);
		if (configCampaign !== undefined) {
			throw new ApiError(
				'conflict',
				`campaign "${name}" has the form of a run of the config campaign "${configCampaign}" (<name>-YYYYMMDDTHHMMSSZ): it would take that run's place: choose another name`,
				{ field: 'name' },
			);
		}
		// An API caller's URL is not let reach this machine or its networks (SSRF): checked again when each event is sent.
		const refused =
			settings.events === undefined
				? undefined
				: await outboundRefusal(settings.events, this.guard.outboundAllow);
		if (refused) throw invalid([{ field: 'events', message: `events ${refused.reason}` }]);
		if (!(await this.store.campaign(name)) && (await this.ledger.campaign(name))) {
			throw new ApiError(
				'conflict',
				`campaign "${name}" exists in the worker's ledger, made by \`cloudtel campaign run\` or a config campaign: choose another name`,
				{ field: 'name', differences: [] },
			);
		}
		const { created, record } = await this.store.create(name, settings, this.now());
		if (!created) {
			const differences = settingDifferences(record.settings, settings);
			if (differences.length > 0 && differences.every((d) => d.setting === 'maxCost'))
				return { created, campaign: await this.changeMaxCost(record, settings) };
			if (differences.length > 0) {
				throw new ApiError(
					'conflict',
					`campaign "${name}" exists with other settings: ${differences.map((d) => d.setting).join(', ')}`,
					{ field: differences[0].setting, differences },
				);
			}
		}
		return { created, campaign: await this.status(record) };
	}

	/**
	 * The one setting that may change after the create: maxCost, while the campaign is a draft
	 * or paused (a run holds the cap it started with). One its spend cap paused goes on when
	 * the new cap is higher; the spend so far stays counted, and no row is sent twice.
	 */
	private async changeMaxCost(
		record: ApiCampaignRecord,
		settings: CampaignSettings,
	): Promise<CampaignStatus> {
		const { name } = record;
		if (!(await this.store.changeSettings(name, settings, this.now())))
			throw new ApiError(
				'conflict',
				`campaign "${name}" is ${(await this.ended(record)) ?? record.state}: maxCost can change while it is a draft or paused (pause it first)`,
				{ field: 'maxCost', differences: settingDifferences(record.settings, settings) },
			);
		const raised =
			settings.maxCost === undefined ||
			(record.settings.maxCost !== undefined && settings.maxCost > record.settings.maxCost);
		if (raised && (await this.ledger.campaign(name))?.pausedBy?.by === 'spend-cap')
			await this.control.resume(name);
		return this.get(name);
	}

	async putPage(name: string, pageParam: string, body: unknown): Promise<PageAccepted> {
		const bad = checkCampaignName(name);
		if (bad) throw notFound(name);
		const page = parsePageNumber(pageParam);
		if (page === undefined)
			throw invalid([
				{
					field: 'page',
					message: `page must be a whole number from 1 to ${MAX_PAGE_NUMBER} (got "${pageParam}")`,
				},
			]);
		const problems = checkRecipientPage(body);
		if (problems.length > 0) throw invalid(problems);
		const recipients = (body as RecipientPage).recipients;
		const json = JSON.stringify(recipients);
		const columns = unionColumns(recipients.map((r) => Object.keys(r)));
		const extra = firstExtraColumn(await this.store.pageColumns(name), columns);
		if (extra !== undefined) {
			throw new ApiError(
				'too_many_columns',
				`page ${page} would give campaign "${name}" more than ${MAX_CAMPAIGN_COLUMNS} distinct columns across its pages, from "${extra}" on: give every recipient the same columns`,
				{ field: extra },
			);
		}
		const hash = createHash('sha256').update(json).digest('hex');
		const outcome = await this.store.putPage(
			name,
			{ page, hash, recipients: recipients.length, columns, body: json },
			this.now(),
		);
		const done = refusalOf(outcome, name, `page ${page}`);
		return {
			page,
			recipients: recipients.length,
			pages: done.pages,
			totalRecipients: done.recipients,
			...(done.outcome === 'unchanged' ? { unchanged: true } : {}),
		};
	}

	/** A CSV body, streamed to disk (csvUpload.ts), then stored in the database in pieces. */
	async putCsv(name: string, body: Readable, maxBytes: number): Promise<CsvAccepted> {
		const record = await this.record(name);
		if (record.state !== 'draft')
			throw new ApiError('started', `campaign "${name}" has started: it takes no more recipients`, {
				field: 'name',
			});
		const csv = await receiveCsv(body, join(this.dir, 'uploads'), maxBytes);
		const pages = csv.pieces.map((chunk, i) => ({
			page: i + 1,
			hash: createHash('sha256').update(chunk).digest('hex'),
			// The rows are counted on the first piece: a piece of a CSV holds no whole rows of its own.
			recipients: i === 0 ? csv.rows : 0,
			columns: i === 0 ? csv.header : [],
			body: chunk.toString('base64'),
		}));
		const outcome = await this.store.putCsv(name, csv.hash, pages, this.now());
		const done = refusalOf(outcome, name, 'the CSV');
		return { rows: done.recipients, ...(done.outcome === 'unchanged' ? { unchanged: true } : {}) };
	}

	/** 202 on the start, 200 when it had started before. */
	async start(
		name: string,
		body: StartRequest | undefined,
	): Promise<{ started: boolean; campaign: CampaignStatus }> {
		const record = await this.record(name);
		if (record.state !== 'draft') return { started: false, campaign: await this.status(record) };
		const totals = await this.store.pageTotals(name);
		const expected =
			body?.pages ?? (totals.pages.length > 0 ? totals.pages[totals.pages.length - 1] : 0);
		const have = new Set(totals.pages);
		const missing: number[] = [];
		for (let p = 1; p <= expected && missing.length < MISSING_LISTED; p++)
			if (!have.has(p)) missing.push(p);
		if (totals.pages.length === 0)
			throw new ApiError(
				'pages_missing',
				`campaign "${name}" has no recipients: put its pages (or a CSV) first`,
				{ missing: expected > 0 ? missing : [1] },
			);
		if (missing.length > 0)
			throw new ApiError(
				'pages_missing',
				`campaign "${name}" is missing page${missing.length > 1 ? 's' : ''} ${listed(missing)} of ${expected}`,
				{ missing },
			);
		const beyond = totals.pages.filter((p) => p > expected);
		if (record.source === 'pages' && beyond.length > 0)
			throw invalid([
				{
					field: 'pages',
					message: `pages is ${expected}, but page${beyond.length > 1 ? 's' : ''} ${listed(beyond)} ${beyond.length > 1 ? 'were' : 'was'} stored too`,
				},
			]);
		const source = record.source ?? 'pages';
		const union = unionColumns(await this.store.pageColumns(name));
		const spec = apiCampaignSpec(name, record.settings, source, this.guard.linkBase, union);
		const header =
			source === 'pages'
				? csvHeader(union, spec.consentColumn !== undefined)
				: ((await this.store.pageColumns(name))[0] ?? []);
		const problems = columnProblems(header, spec).map((e) => ({
			field: API_SETTING[e.setting] ?? e.setting,
			message: `${API_SETTING[e.setting] ?? e.setting}: ${e.detail.replace(` of ${spec.csvPath}`, ' of the recipients').replace(`${spec.csvPath} has`, 'the recipients have')}`,
		}));
		if (spec.schedule !== undefined) {
			const late = checkSchedule('schedule', spec.schedule, Math.floor(this.now() / 1000));
			if (late?.ErrorCode === ErrorCodes.ScheduleInPast)
				problems.push({
					field: 'schedule',
					message: `schedule ${record.settings.schedule} is an hour or more in the past: the provider would refuse it`,
				});
		}
		if (problems.length > 0) throw invalid(problems);
		const at = this.now();
		// Its campaign.started is queued by the move itself: a start answered twice is announced once.
		const started = await this.store.start(
			name,
			spec,
			at,
			this.events?.startedForwards(eventRun(record), at),
		);
		const now = (await this.store.campaign(name))!;
		if (started) this.events?.wake();
		if (started) this.runner.kick(name);
		return { started, campaign: await this.status(now) };
	}

	async pause(name: string): Promise<CampaignStatus> {
		const record = await this.record(name);
		if (record.state === 'draft')
			throw new ApiError(
				'conflict',
				`campaign "${name}" has not started: there is nothing to pause`,
				{ field: 'state' },
			);
		const ended = await this.ended(record);
		if (ended)
			throw new ApiError('conflict', `campaign "${name}" is ${ended}: there is nothing to pause`, {
				field: 'state',
			});
		await this.control.pause(name);
		return this.get(name);
	}

	async resume(name: string): Promise<CampaignStatus> {
		const record = await this.record(name);
		if (record.state === 'draft')
			throw new ApiError('conflict', `campaign "${name}" has not started: start it`, {
				field: 'state',
			});
		const ended = await this.ended(record);
		if (ended)
			throw new ApiError('conflict', `campaign "${name}" is ${ended} and cannot be resumed`, {
				field: 'state',
			});
		await this.control.resume(name);
		return this.get(name);
	}

	async cancel(name: string): Promise<CampaignStatus> {
		const record = await this.record(name);
		if (record.state === 'finished' || record.state === 'failed')
			throw new ApiError(
				'conflict',
				`campaign "${name}" is ${record.state}: there is nothing to cancel`,
				{ field: 'state' },
			);
		if ((await this.ended(record)) === 'cancelled') return this.get(name);
		await this.control.cancel(name, 'cancelled through the API');
		return this.get(name);
	}

	/**
	 * A draft goes with its pages; an ended campaign with its ledger rows, as retention would
	 * prune it; either way the CSV a preview or a run wrote of it, and the name is free again.
	 * One that may still send is refused: cancel it first.
	 */
	async delete(name: string): Promise<CampaignDeleted> {
		const record = await this.record(name);
		const state = (await this.status(record)).state;
		await this.control.delete(name);
		return { deleted: { name, state } };
	}

	/** The JSON of `cloudtel campaign report --json`; with `notSentLimit`, a page of the recipients not sent, by line. */
	async report(
		name: string,
		pricePerSegment?: number,
		page: { notSentLimit?: number; notSentAfter?: number } = {},
	): Promise<CampaignReport & { notSent?: NotSentPage }> {
		const record = await this.record(name);
		if (record.state === 'draft' || !(await this.ledger.campaign(name)))
			throw new ApiError(
				'conflict',
				`campaign "${name}" has not started sending: there is no report yet`,
				{ field: 'state' },
			);
		// The Campaign node asks without a price: the campaign's own, else the config's, gives the cost.
		const report = await readCampaignReport(this.ledger, name, {
			pricePerSegment:
				pricePerSegment ?? record.settings.pricePerSegment ?? this.guard.pricePerSegment,
			currency: this.guard.currency,
		});
		const limit = page.notSentLimit ?? 0;
		if (limit === 0) return report;
		const rows: NotSentPage['recipients'] = [];
		for await (const r of this.ledger.rows(
			name,
			[...NOT_SENT],
			limit + 1,
			page.notSentAfter ?? 0,
		)) {
			rows.push({
				line: r.line,
				...(r.to !== undefined ? { to: r.to } : {}),
				status: r.status,
				...(r.errorCode ? { code: r.errorCode } : {}),
				...(r.message ? { message: r.message } : {}),
			});
		}
		const more = rows.length > limit;
		const recipients = rows.slice(0, limit);
		return {
			...report,
			notSent: { recipients, ...(more ? { next: recipients[recipients.length - 1].line } : {}) },
		};
	}

	/** The JSON of `cloudtel campaign evidence --json`: one row per recipient, by line. */
	async evidence(
		name: string,
	): Promise<{ campaign: string; exportedAt: string; rows: EvidenceRow[] }> {
		const record = await this.record(name);
		if (record.state === 'draft' || !(await this.ledger.campaign(name)))
			throw new ApiError(
				'conflict',
				`campaign "${name}" has not started sending: there is no evidence yet`,
				{ field: 'state' },
			);
		const rows: EvidenceRow[] = [];
		for await (const r of this.ledger.evidence(name)) rows.push(r);
		return { campaign: name, exportedAt: new Date(this.now()).toISOString(), rows };
	}

	/** The dry run of the recipients as they stand: counts, segments, cost, the first problems. */
	async preview(name: string, pricePerSegment?: number): Promise<CampaignPreview> {
		const record = await this.record(name);
		const ended = await this.ended(record);
		if (ended)
			throw new ApiError(
				'conflict',
				`campaign "${name}" is ${ended}: its report says how it went`,
				{ field: 'state' },
			);
		const totals = await this.store.pageTotals(name);
		if (totals.pages.length === 0)
			throw new ApiError(
				'pages_missing',
				`campaign "${name}" has no recipients: put its pages (or a CSV) first`,
				{ missing: [1] },
			);
		const source = record.source ?? 'pages';
		// Recipient n of the pages is line n + 1, the header line 1, whatever its values hold.
		const exact = source === 'pages';
		const spec = apiCampaignSpec(
			name,
			record.settings,
			source,
			this.guard.linkBase,
			unionColumns(await this.store.pageColumns(name)),
		);
		const pace = runPace(record.settings);
		let summary;
		try {
			summary = await runCampaign(
				{
					spec,
					dryRun: true,
					rate: pace.rate,
					batchSize: pace.batchSize,
					concurrency: 1,
					threads: 0,
					pricePerSegment: pricePerSegment ?? pace.pricePerSegment,
					maxCost: pace.maxCost,
					frequencyCap: pace.frequencyCap,
					registeredSenderIds: this.guard.registeredSenderIds,
				},
				{
					ledger: this.ledger,
					reporter: new SilentReporter(),
					input: recipientRows(this.store, record),
				},
			);
		} catch (error) {
			if (error instanceof SettingError)
				throw invalid([
					{
						field: API_SETTING[error.setting] ?? error.setting,
						message: `${API_SETTING[error.setting] ?? error.setting}: ${error.detail}`,
					},
				]);
			if (error instanceof FatalError)
				throw invalid([{ field: 'recipients', message: error.message }]);
			throw error;
		}
		const f = summary.forecast;
		return {
			recipients: summary.total,
			valid: summary.rows.pending,
			invalid: summary.rows.invalid,
			duplicates: summary.rows.duplicate,
			suppressed: summary.rows.suppressed,
			capped: summary.rows.capped,
			segments: summary.segments,
			messages: f?.messages ?? summary.rows.pending,
			...(f?.estimatedCost !== undefined ? { cost: f.estimatedCost } : {}),
			...(f?.spendCap ? { spendCap: f.spendCap } : {}),
			...(f?.refused ? { refused: f.refused } : {}),
			...(f?.senderId ? { warnings: [f.senderId.message] } : {}),
			problems: summary.firstErrors.map((p) => ({
				line: p.line,
				...(exact ? { recipient: p.line - 1 } : {}),
				code: p.code,
				message: p.reason,
			})),
			samples: (summary.preview ?? []).map((p) => ({
				line: p.line,
				...(exact ? { recipient: p.line - 1 } : {}),
				to: p.to,
				text: p.text,
				segments: p.segments,
			})),
			...(summary.variants ? { variants: summary.variants.map(previewVariant) } : {}),
		};
	}
}

function previewVariant(v: VariantForecast): CampaignPreviewVariant {
	return {
		text: v.text,
		testRecipients: v.testRows,
		testSegments: v.testSegments,
		restRecipients: v.restRows,
		restSegments: v.restSegments,
		...(v.testCost !== undefined ? { testCost: v.testCost, restCost: v.restCost } : {}),
		ucs2Recipients: v.ucs2Rows,
		ucs2Characters: v.ucs2Characters,
		...(v.sample
			? { sample: { to: v.sample.to, text: v.sample.text, segments: v.sample.segments } }
			: {}),
	};
}

function listed(pages: number[]): string {
	return pages.length > 10
		? `${pages.slice(0, 10).join(', ')} and ${pages.length - 10} more`
		: pages.join(', ');
}

/** A stored page's outcome, or the refusal it stands for. */
function refusalOf(
	outcome: PutPageOutcome,
	name: string,
	what: string,
): { outcome: 'stored' | 'unchanged'; pages: number; recipients: number } {
	switch (outcome.outcome) {
		case 'stored':
		case 'unchanged':
			return outcome;
		case 'not_found':
			throw notFound(name);
		case 'started':
			throw new ApiError('started', `campaign "${name}" has started: it takes no more recipients`, {
				field: 'name',
			});
		case 'page_conflict':
			throw new ApiError(
				'page_conflict',
				`${what} of campaign "${name}" was stored with other content; a page is given once (the same content again is harmless)`,
				{ field: what.startsWith('page') ? 'page' : 'csv' },
			);
		case 'other_source':
			throw new ApiError(
				'conflict',
				`campaign "${name}" has its recipients as ${outcome.source === 'csv' ? 'a CSV' : 'JSON pages'}: pages and a CSV are not mixed`,
				{ field: outcome.source === 'csv' ? 'page' : 'csv' },
			);
	}
}

/** The first of a page's columns past MAX_CAMPAIGN_COLUMNS, counting those the campaign's stored pages have first. */
function firstExtraColumn(stored: string[][], page: string[]): string | undefined {
	const seen = new Set(unionColumns(stored));
	for (const column of page) {
		if (seen.has(column)) continue;
		seen.add(column);
		if (seen.size > MAX_CAMPAIGN_COLUMNS) return column;
	}
	return undefined;
}
