import * as echarts from 'echarts';
import type { CampaignReport } from './campaignReport';
import { variantChartOption } from './variantChart';

export interface RenderedChart {
	id: 'funnel' | 'timeline' | 'errorCodes' | 'countries' | 'variants';
	title: string;
	/** An SVG element, or undefined when there is nothing to draw. */
	svg?: string;
	/** Said instead of an empty chart. */
	empty: string;
}

/**
 * Drawn at about a phone's width, and shown no wider than MAX_WIDTH (reportHtml): text of
 * FONT px reads at >= 11 px on a 390 px phone (the chart is then ~350 px wide) and at no
 * more than ~16 px on a desktop, beside the page's own 13-16 px text.
 */
export const WIDTH = 420;
export const MAX_WIDTH = 480;
const HEIGHT = 280;
const FONT = 14;
const number = (v: number) => v.toLocaleString('en-US');
const COLORS = {
	sent: '#3867d6',
	delivered: '#20bf6b',
	failed: '#eb3b5a',
	uncertain: '#f7b731',
	other: '#8854d0',
};

/**
 * Apache ECharts rendered to SVG here, in Node (its server-side renderer): the page gets
 * finished SVG, needs no script, and opens offline. No animation: it would only delay
 * the drawing of a static page.
 */
function svg(option: echarts.EChartsOption, height = HEIGHT): string {
	const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width: WIDTH, height });
	try {
		chart.setOption({
			animation: false,
			textStyle: { fontFamily: 'system-ui, sans-serif', fontSize: FONT },
			...option,
		});
		return chart.renderToSVGString();
	} finally {
		chart.dispose();
	}
}

function bars(labels: string[], values: number[], color: string | string[]): echarts.EChartsOption {
	return {
		grid: { left: 8, right: 48, top: 8, bottom: 8, containLabel: true },
		// One number format everywhere: 20,000 on the bars as on the axis.
		xAxis: {
			type: 'value',
			minInterval: 1,
			splitNumber: 3,
			axisLabel: { fontSize: FONT, formatter: number, hideOverlap: true, margin: 12 },
		},
		yAxis: { type: 'category', data: labels, inverse: true, axisLabel: { fontSize: FONT } },
		series: [
			{
				type: 'bar',
				data: values.map((value, i) => ({
					value,
					itemStyle: { color: Array.isArray(color) ? color[i] : color },
				})),
				label: {
					show: true,
					position: 'right',
					fontSize: FONT,
					formatter: (p: { value: unknown }) => number(Number(p.value)),
				},
				barMaxWidth: 28,
			},
		],
	};
}

export function reportCharts(r: CampaignReport): RenderedChart[] {
	const f = r.funnel;
	const funnel: RenderedChart = {
		id: 'funnel',
		// The section's heading already says Funnel.
		title: 'Rows at each stage',
		empty: 'No rows yet.',
		svg: f.rows === 0 ? undefined : svg(bars(...funnelBars(r)), 40 + 34 * funnelBars(r)[0].length),
	};
	const t = r.timeline;
	const axis = timeAxis(r);
	const timeline: RenderedChart = {
		id: 'timeline',
		title: `Sends and receipts over time (per ${describeSeconds(t.bucketSeconds)}, ${r.details.timeZone})`,
		empty: 'Nothing sent yet.',
		svg:
			axis.keys.length === 0
				? undefined
				: svg({
						grid: { left: 8, right: 16, top: 40, bottom: 8, containLabel: true },
						legend: { top: 0, textStyle: { fontSize: FONT } },
						// Buckets as categories, each one there, the empty ones as zero; labels every
						// `interval` buckets, as many as fit side by side without touching.
						xAxis: {
							type: 'category',
							data: axis.labels,
							axisLabel: { fontSize: FONT, interval: axis.interval, hideOverlap: true, margin: 12 },
							axisTick: { alignWithLabel: true },
						},
						yAxis: {
							type: 'value',
							minInterval: 1,
							splitNumber: 3,
							axisLabel: { fontSize: FONT, formatter: number },
						},
						series: [
							{
								name: 'Sent',
								type: 'bar',
								color: COLORS.sent,
								data: axis.keys.map((k) => axis.sends.get(k) ?? 0),
								barMaxWidth: 24,
							},
							...(r.receipts
								? [
										{
											name: 'Delivered',
											type: 'line' as const,
											color: COLORS.delivered,
											data: axis.keys.map((k) => axis.delivered.get(k) ?? 0),
										},
										{
											name: 'Failed',
											type: 'line' as const,
											color: COLORS.failed,
											data: axis.keys.map((k) => axis.failed.get(k) ?? 0),
										},
									]
								: []),
						],
					}),
	};
	const errorCodes: RenderedChart = {
		id: 'errorCodes',
		title: 'Failed deliveries by ErrorCode',
		empty: 'No failed deliveries.',
		svg:
			r.failuresByErrorCode.length === 0
				? undefined
				: svg(
						bars(
							r.failuresByErrorCode.map((e) => e.errorCode || '(none)'),
							r.failuresByErrorCode.map((e) => e.count),
							COLORS.failed,
						),
						chartHeight(r.failuresByErrorCode.length),
					),
	};
	const countries: RenderedChart = {
		id: 'countries',
		title: "Failed deliveries by the recipient's country",
		empty: 'No failed deliveries.',
		svg:
			r.failuresByCountry.length === 0
				? undefined
				: svg(
						bars(
							r.failuresByCountry.map((c) => c.country),
							r.failuresByCountry.map((c) => c.count),
							COLORS.failed,
						),
						chartHeight(r.failuresByCountry.length),
					),
	};
	const v = r.variants;
	const variants: RenderedChart = {
		id: 'variants',
		title: 'Each text: its messages sent that were delivered, replied to, clicked, opted out',
		empty: 'Nothing of the test sent yet.',
		svg:
			!v || v.variants.every((f) => f.sent === 0)
				? undefined
				: svg(variantChartOption(v), chartHeight(v.variants.length * 3) + 40),
	};
	return [funnel, timeline, errorCodes, countries, ...(v ? [variants] : [])];
}

function funnelBars(r: CampaignReport): [string[], number[], string[]] {
	const f = r.funnel;
	const bars: [string, number, string][] = [
		['Rows', f.rows, COLORS.other],
		['Valid', f.valid, COLORS.other],
		['Sent', f.sent, COLORS.sent],
		...(f.uncertain > 0
			? [['Uncertain', f.uncertain, COLORS.uncertain] as [string, number, string]]
			: []),
		...(r.receipts
			? [
					['Delivered', f.delivered, COLORS.delivered] as [string, number, string],
					['Failed', f.failed, COLORS.failed] as [string, number, string],
				]
			: []),
		['Replied', f.replied, COLORS.other],
		['Opted out', f.optedOut, COLORS.other],
	];
	return [bars.map((b) => b[0]), bars.map((b) => b[1]), bars.map((b) => b[2])];
}

/** Plot width left for the time axis' labels, and the width one label needs (FONT px digits, a gap). */
const PLOT_WIDTH = WIDTH - 70;
const labelWidth = (label: string) => label.length * FONT * 0.62 + 12;

/** Every bucket from the first to the last of either series, labelled in the campaign's zone. */
function timeAxis(r: CampaignReport) {
	const t = r.timeline;
	const w = t.bucketSeconds * 1000;
	const sends = new Map(t.sends.map((b) => [Date.parse(b.at), b.count]));
	const delivered = new Map(t.deliveries.map((b) => [Date.parse(b.at), b.delivered]));
	const failed = new Map(t.deliveries.map((b) => [Date.parse(b.at), b.failed]));
	const all = [...sends.keys(), ...delivered.keys()];
	const keys: number[] = [];
	if (all.length > 0)
		for (let at = Math.min(...all); at <= Math.max(...all); at += w) keys.push(at);
	const format = new Intl.DateTimeFormat('en-GB', {
		timeZone: r.details.timeZone,
		hourCycle: 'h23',
		...(t.bucketSeconds >= 86_400
			? { day: 'numeric', month: 'short' }
			: t.bucketSeconds < 60
				? { hour: '2-digit', minute: '2-digit', second: '2-digit' }
				: { hour: '2-digit', minute: '2-digit' }),
	});
	const labels = keys.map((k) => format.format(k));
	const widest = Math.max(0, ...labels.map(labelWidth));
	const fit = Math.max(1, Math.floor(PLOT_WIDTH / widest));
	return {
		keys,
		labels,
		sends,
		delivered,
		failed,
		interval: Math.max(0, Math.ceil(keys.length / fit) - 1),
	};
}

function chartHeight(bars: number): number {
	return Math.min(600, Math.max(160, 60 + 36 * bars));
}

export function describeSeconds(s: number): string {
	if (s % 86_400 === 0) return s === 86_400 ? 'day' : `${s / 86_400} days`;
	if (s % 3600 === 0) return s === 3600 ? 'hour' : `${s / 3600} hours`;
	if (s % 60 === 0) return s === 60 ? 'minute' : `${s / 60} minutes`;
	return s === 1 ? 'second' : `${s} seconds`;
}
