import type * as echarts from 'echarts';
import type { CampaignReport } from './campaignReport';

const FONT = 14;
const COLORS = {
	delivered: '#20bf6b',
	replied: '#3867d6',
	clicked: '#f7b731',
	optedOut: '#eb3b5a',
};

/**
 * A variant campaign's texts side by side: each measure the winner may be judged by, as a
 * share of the text's messages sent, so texts sent to different numbers of rows compare.
 */
export function variantChartOption(
	v: NonNullable<CampaignReport['variants']>,
): echarts.EChartsOption {
	const share = (n: number, sent: number) => (sent === 0 ? 0 : Math.round((n / sent) * 1000) / 10);
	const measures: [string, string, (f: (typeof v.variants)[number]) => number][] = [
		['Delivered', COLORS.delivered, (f) => f.delivered],
		['Replied', COLORS.replied, (f) => f.replies],
		...(v.variants.some((f) => f.clicksTracked)
			? [
					['Clicked', COLORS.clicked, (f) => f.clicks] as [
						string,
						string,
						(f: (typeof v.variants)[number]) => number,
					],
				]
			: []),
		['Opted out', COLORS.optedOut, (f) => f.optOuts],
	];
	return {
		grid: { left: 8, right: 48, top: 40, bottom: 8, containLabel: true },
		legend: { top: 0, textStyle: { fontSize: FONT } },
		xAxis: {
			type: 'value',
			max: 100,
			splitNumber: 2,
			axisLabel: { fontSize: FONT, formatter: '{value}%' },
		},
		yAxis: {
			type: 'category',
			inverse: true,
			data: v.variants.map((_, i) => `${i + 1}${v.winner?.index === i + 1 ? ' (won)' : ''}`),
			axisLabel: { fontSize: FONT },
		},
		series: measures.map(([name, color, count]) => ({
			name,
			type: 'bar' as const,
			color,
			data: v.variants.map((f) => share(count(f), f.sent)),
			label: { show: true, position: 'right' as const, fontSize: FONT, formatter: '{c}%' },
			barMaxWidth: 14,
		})),
	};
}
