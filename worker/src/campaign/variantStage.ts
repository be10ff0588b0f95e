import { SettingError, UsageError } from '../errors';
import { variantSettings } from '../settings/variantSettings';
import type { CampaignSpec } from '../settings/campaignSpec';
import type { Ledger } from '../storage/ledger';
import type { Reporter } from './reporter';
import { pickWinner } from './variantWinner';

export type VariantStep =
	| { kind: 'none' }
	| { kind: 'decided'; released: number }
	/** Unix milliseconds the decision is due. */
	| { kind: 'waiting'; until: number };

/**
 * A variant campaign between its test and the rest: once the test is sent and the wait
 * after its last send is over (or at once with `--winner`), the winner is stored and the
 * held rows take its text. Runs on the normal send path: what is released goes through
 * the same chunks, pacing, windows and suppression look as any pending row.
 */
export async function variantStep(
	spec: CampaignSpec,
	ledger: Ledger,
	reporter: Reporter,
	options: { winner?: number; now: () => number },
): Promise<VariantStep> {
	const name = spec.name;
	const settings = variantSettings(spec);
	const byHand = options.winner;
	if (!settings) {
		if (byHand !== undefined)
			throw new UsageError(
				`--winner decides between texts: campaign ${name} has one (give --variant texts to test some)`,
			);
		return { kind: 'none' };
	}
	const count = settings.texts.length;
	if (byHand !== undefined && !(Number.isInteger(byHand) && byHand >= 1 && byHand <= count))
		throw new SettingError(
			'winner',
			`must be the number of a text, 1 (--text) to ${count} (got ${byHand})`,
		);
	const stored = await ledger.variants.decision(name);
	if (stored && byHand !== undefined && stored.winner !== byHand)
		throw new UsageError(
			`campaign ${name}: text ${stored.winner} won already (${stored.byHand ? 'by hand' : `by ${stored.by}`}, ${new Date(stored.decidedAt).toISOString()}); the decision stands once made`,
		);
	const counts = await ledger.counts(name);
	if (stored || (counts.rows.held === 0 && byHand === undefined)) {
		if (!stored || counts.rows.held === 0) return { kind: 'none' };
		// Decided, yet rows are held: give them the stored winner's text.
		const { released } = await ledger.variants.decide(name, stored);
		return { kind: 'decided', released };
	}
	if (byHand === undefined) {
		// The test is still on its way (another worker's chunks).
		if (counts.rows.pending + counts.rows.submitting > 0) return { kind: 'none' };
		// Nothing of the test was answered: no measure to wait for.
		const last = (await ledger.variants.lastAnswerAt(name)) ?? 0;
		const until = last + settings.decideAfter * 1000;
		if (options.now() < until) return { kind: 'waiting', until };
	}
	const tallies = await ledger.variants.tally(name);
	const picked = pickWinner(tallies, count, settings.winnerBy);
	const { decision, decided, released } = await ledger.variants.decide(name, {
		winner: byHand ?? picked.winner,
		by: settings.winnerBy,
		rates: picked.rates,
		byHand: byHand !== undefined,
		decidedAt: options.now(),
	});
	if (decided) {
		const rates = decision.rates
			.map((r, i) => `${i + 1}: ${r === null ? 'none sent' : `${(r * 100).toFixed(1)}%`}`)
			.join(', ');
		reporter.event(
			'variant-decided',
			{
				campaign: name,
				winner: decision.winner,
				by: decision.by,
				byHand: decision.byHand,
				rates: decision.rates,
				decidedAt: new Date(decision.decidedAt).toISOString(),
				rest: released,
			},
			`text ${decision.winner} won (${decision.byHand ? 'chosen by hand' : `by ${decision.by}`}; ${decision.by} rates ${rates}): the other ${released} rows go with its text`,
		);
	}
	return { kind: 'decided', released };
}
