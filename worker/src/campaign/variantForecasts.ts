import type { VariantForecast } from './campaignSummary';
import type { DryRunSample } from './dryRunSink';

/** A variant campaign's dry run, per text: what the sink counted, with its cost (given a price) and its sample. */
export function variantForecasts(
	counted: VariantForecast[],
	samples: DryRunSample[],
	pricePerSegment: number | undefined,
): VariantForecast[] {
	const cost = (segments: number) =>
		Math.round(segments * (pricePerSegment ?? 0) * 10_000) / 10_000;
	return counted.map((v, i) => {
		const s = samples[i];
		return {
			...v,
			...(pricePerSegment !== undefined
				? { testCost: cost(v.testSegments), restCost: cost(v.restSegments) }
				: {}),
			...(s ? { sample: { line: s.line, to: s.to, text: s.text, segments: s.segments } } : {}),
		};
	});
}
