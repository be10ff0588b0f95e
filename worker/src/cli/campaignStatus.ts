import type { CampaignSpec } from '../settings/campaignSpec';
import { STALE_OWNER_MS } from '../errors';
import { ownerIsAlive } from '../storage/ownerIsAlive';
import type {
	CampaignPhase,
	DeliveryCounts,
	LedgerReader,
	PausedBy,
	StatusCounts,
} from '../storage/ledger';
import { lineRanges } from '../report/lineRanges';
import { fromMicros, money } from '../campaign/spendCap';
import { SPEND_KEY } from '../storage/guardSql';
import { VARIANT_DEFAULTS } from '../settings/variantSettings';
import { formatVariants, variantsStatus, type VariantsStatus } from '../campaign/variantStatus';
import type { LinkCounts } from '../storage/linkStore';
import { linkStoreOf } from '../storage/openStores';

export interface CampaignStatus {
	name: string;
	phase: CampaignPhase;
	paused: boolean;
	/** The guardrail that paused it, and what it saw; null for a pause of a person's. */
	pausedBy: PausedBy['by'] | null;
	pausedReason: string | null;
	/** What its spend cap has counted as paid (--max-cost), in the price's unit; 0 without one. */
	spent: number;
	running: { pid: number; host: string } | null;
	spec: CampaignSpec;
	rows: StatusCounts;
	total: number;
	acceptedSegments: number;
	/** What receipts and replies said of the accepted rows. */
	delivery: DeliveryCounts;
	/** With --track-links: recipients who clicked at least once, all clicks, previews (not clicks). */
	links?: LinkCounts;
	importedThrough: number;
	uncertainLines: number[];
	firstErrors: { line: number; code: string; reason: string }[];
	createdAt: string;
	updatedAt: string;
	/** A variant campaign's figures per text (variants) and its decision (winner). */
	variants?: VariantsStatus['variants'];
	winner?: VariantsStatus['winner'];
}

export async function readStatus(ledger: LedgerReader, name: string): Promise<CampaignStatus> {
	const record = (await ledger.campaign(name))!;
	const counts = await ledger.counts(name);
	const uncertainLines: number[] = [];
	// Every one: a person checks each uncertain line before sending it again.
	for await (const r of ledger.rows(name, ['uncertain'])) uncertainLines.push(r.line);
	const firstErrors: CampaignStatus['firstErrors'] = [];
	for await (const r of ledger.rows(name, ['invalid', 'rejected', 'capped'], 10))
		firstErrors.push({ line: r.line, code: r.errorCode ?? '', reason: r.message ?? '' });
	const variants = await variantsStatus(ledger, record.spec);
	const live =
		record.owner && ownerIsAlive(record.owner, STALE_OWNER_MS) ? record.owner : undefined;
	return {
		name,
		phase: record.phase,
		paused: record.paused,
		pausedBy: record.pausedBy?.by ?? null,
		pausedReason: record.pausedBy?.detail ?? null,
		spent: fromMicros(await ledger.spent(SPEND_KEY + name)),
		running: live ? { pid: live.pid, host: live.host } : null,
		spec: record.spec,
		rows: counts.rows,
		total: counts.total,
		acceptedSegments: counts.acceptedSegments,
		delivery: await ledger.deliveryCounts(name),
		...(record.spec.linkBase !== undefined
			? { links: await linkStoreOf(ledger).counts(name) }
			: {}),
		importedThrough: record.importedThrough,
		uncertainLines,
		firstErrors,
		createdAt: new Date(record.createdAt).toISOString(),
		updatedAt: new Date(record.updatedAt).toISOString(),
		...(variants ? { variants: variants.variants, winner: variants.winner } : {}),
	};
}

export function formatStatus(s: CampaignStatus): string {
	const lines = [
		`Campaign ${s.name}: ${s.phase}${s.paused ? (s.pausedBy ? ` (paused by its ${s.pausedBy})` : ' (paused)') : ''}${s.running ? `, running as pid ${s.running.pid} on ${s.running.host}` : ', no run active'}`,
	];
	lines.push(`  csv ${s.spec.csvPath}, property ${s.spec.propertySid}`);
	lines.push(
		`  rows ${s.total}: ` +
			Object.entries(s.rows)
				.filter(([, n]) => n > 0)
				.map(([k, n]) => `${k} ${n}`)
				.join(', '),
	);
	lines.push(`  segments accepted ${s.acceptedSegments}`);
	if (s.pausedReason) lines.push(`  ${s.pausedBy}: ${s.pausedReason}`);
	else if (s.spent > 0) lines.push(`  spent ${money(s.spent)} (--max-cost)`);
	// Awaited only when asked for (or come anyway): "awaiting" would promise what never comes.
	const asked = s.spec.receipts === true || s.delivery.delivered + s.delivery.failed > 0;
	lines.push(
		!asked && s.rows.accepted > 0
			? '  receipts: not asked for; to get them, send with --receipt-url pointing at a running `cloudtel worker` on this ledger, or run the campaign through the worker (a config or API campaign asks for them itself)'
			: `  receipts: ${formatDelivery(s.delivery)}`,
	);
	lines.push(`  replies ${s.delivery.replied}, opted out ${s.delivery.optedOut}`);
	if (s.links)
		lines.push(
			`  links: clicked by ${s.links.clicked} recipient${s.links.clicked === 1 ? '' : 's'} (${s.links.clicks} click${s.links.clicks === 1 ? '' : 's'}); ${s.links.prefetches} preview${s.links.prefetches === 1 ? '' : 's'} not counted`,
		);
	// Every one, as ranges: thousands of uncertain rows stay one short line.
	if (s.uncertainLines.length > 0) lines.push(`  uncertain lines: ${lineRanges(s.uncertainLines)}`);
	if (s.variants)
		lines.push(
			...formatVariants({
				variants: s.variants,
				winner: s.winner ?? null,
				testShare: s.spec.testShare ?? VARIANT_DEFAULTS.testShare,
				decideAfterSeconds: s.spec.decideAfter ?? VARIANT_DEFAULTS.decideAfter,
			}),
		);
	for (const e of s.firstErrors) lines.push(`  line ${e.line}: ${e.code}: ${e.reason}`);
	return lines.join('\n') + '\n';
}

/** `delivered 5, failed 2 (UNDELIVERABLE 1, UNKNOWN_SUBSCRIBER 1), awaiting receipt 3` */
export function formatDelivery(d: DeliveryCounts): string {
	const codes = Object.entries(d.failedByCode)
		.sort((x, y) => y[1] - x[1])
		.map(([code, n]) => `${code || 'no ErrorCode'} ${n}`);
	return `delivered ${d.delivered}, failed ${d.failed}${codes.length > 0 ? ` (${codes.join(', ')})` : ''}, awaiting receipt ${d.awaitingReceipt}`;
}
