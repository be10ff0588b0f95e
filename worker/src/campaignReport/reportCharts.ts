import * as echarts from 'echarts';
import type { CampaignReport } from './campaignReport';

export interface RenderedChart {
	id: 'funnel' | 'timeline' | 'errorCodes' | 'countries';
	title: string;
	/** An SVG element, or undefined when there is nothing to draw. */
	svg?: string;
	/** Said instead of an empty chart. */
	empty: string;
}

/** Drawn at a phone's width or so and scaled up on a wide screen: text stays readable on both. */
const WIDTH = 480;
const HEIGHT = 280;
const COLORS = { sent: '#3867d6', delivered: '#20bf6b', failed: '#eb3b5a', other: '#8854d0' };

/**
 * Apache ECharts rendered to SVG here, in Node (its server-side renderer): the page gets
 * finished SVG, needs no script, and opens offline. No animation: it would only delay
 * the drawing of a static page.
 */
function svg(option: echarts.EChartsOption, height = HEIGHT): string {
	const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width: WIDTH, height });
	try {
		chart.setOption({ animation: false, textStyle: { fontFamily: 'system-ui, sans-serif' }, ...option });
		return chart.renderToSVGString();
	} finally {
		chart.dispose();
	}
}

function bars(labels: string[], values: number[], color: string | string[]): echarts.EChartsOption {
	return {
		grid: { left: 8, right: 48, top: 8, bottom: 8, containLabel: true },
		xAxis: { type: 'value', minInterval: 1 },
		yAxis: { type: 'category', data: labels, inverse: true },
		series: [
			{
				type: 'bar',
				data: values.map((value, i) => ({ value, itemStyle: { color: Array.isArray(color) ? color[i] : color } })),
				label: { show: true, position: 'right' },
				barMaxWidth: 28,
			},
		],
	};
}

export function reportCharts(r: CampaignReport): RenderedChart[] {
	const f = r.funnel;
	const funnel: RenderedChart = {
		id: 'funnel',
		title: 'Funnel',
		empty: 'No rows yet.',
		svg:
			f.rows === 0
				? undefined
				: svg(
						bars(
							['Rows', 'Valid', 'Sent', 'Delivered', 'Failed', 'Replied', 'Opted out'],
							[f.rows, f.valid, f.sent, f.delivered, f.failed, f.replied, f.optedOut],
							[COLORS.other, COLORS.other, COLORS.sent, COLORS.delivered, COLORS.failed, COLORS.other, COLORS.other],
						),
					),
	};
	const t = r.timeline;
	const point = (at: string, n: number) => [Date.parse(at), n];
	const timeline: RenderedChart = {
		id: 'timeline',
		title: `Sends and receipts over time (per ${describeSeconds(t.bucketSeconds)})`,
		empty: 'Nothing sent yet.',
		svg:
			t.sends.length + t.deliveries.length === 0
				? undefined
				: svg({
						grid: { left: 8, right: 16, top: 40, bottom: 8, containLabel: true },
						legend: { top: 0 },
						xAxis: { type: 'time' },
						yAxis: { type: 'value', minInterval: 1 },
						series: [
							{ name: 'Sent', type: 'bar', color: COLORS.sent, data: t.sends.map((b) => point(b.at, b.count)), barMaxWidth: 24 },
							{ name: 'Delivered', type: 'line', color: COLORS.delivered, data: t.deliveries.map((b) => point(b.at, b.delivered)) },
							{ name: 'Failed', type: 'line', color: COLORS.failed, data: t.deliveries.map((b) => point(b.at, b.failed)) },
						],
					}),
	};
	const errorCodes: RenderedChart = {
		id: 'errorCodes',
		title: 'Failed deliveries by ErrorCode',
		empty: 'No failed deliveries.',
		svg: r.failuresByErrorCode.length === 0 ? undefined : svg(bars(r.failuresByErrorCode.map((e) => e.errorCode || '(none)'), r.failuresByErrorCode.map((e) => e.count), COLORS.failed), chartHeight(r.failuresByErrorCode.length)),
	};
	const countries: RenderedChart = {
		id: 'countries',
		title: "Failed deliveries by the recipient's country",
		empty: 'No failed deliveries.',
		svg: r.failuresByCountry.length === 0 ? undefined : svg(bars(r.failuresByCountry.map((c) => c.country), r.failuresByCountry.map((c) => c.count), COLORS.failed), chartHeight(r.failuresByCountry.length)),
	};
	return [funnel, timeline, errorCodes, countries];
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
