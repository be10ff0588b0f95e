import { createHash } from 'node:crypto';
import type { CsvItem } from '../csv/csvItem';
import type { ImportRow, InputMark } from '../storage/ledger';
import type { VariantForecast } from './campaignSummary';
import type { RowSink } from './readStage';

/** Whether the row is in the test: drawn at random, the same way each time for the same campaign and number. */
export function inTest(campaign: string, to: string, share: number): boolean {
	if (share >= 1) return true;
	const h = createHash('sha256').update(`${campaign}\0${to}`).digest();
	return h.readUInt32BE(0) / 0x1_0000_0000 < share;
}

/**
 * Picks each valid row's text: a row in the test gets the next variant in turn (so the test
 * splits evenly), the others are held, with every rendering, until the winner is known. A
 * dry run's rows (held false) go on as the first text's, for the whole list's forecast.
 */
export class VariantSink implements RowSink {
	readonly forecast: VariantForecast[];
	private nextTest: number;

	constructor(
		private readonly inner: RowSink,
		private readonly campaign: string,
		texts: string[],
		private readonly share: number,
		/** Test rows stored already (an import resumed): the turn goes on from them. */
		testRowsBefore: number,
		private readonly hold: boolean,
	) {
		this.nextTest = testRowsBefore;
		this.forecast = texts.map((text) => ({
			text,
			testRows: 0,
			testSegments: 0,
			restRows: 0,
			restSegments: 0,
			ucs2Rows: 0,
			ucs2Characters: '',
		}));
	}

	async accept(
		rows: ImportRow[],
		throughLine: number,
		items: CsvItem[],
		input?: InputMark,
	): Promise<void> {
		await this.inner.accept(
			rows.map((r) => this.pick(r)),
			throughLine,
			items,
			input,
		);
	}

	private pick(row: ImportRow): ImportRow {
		const renderings = row.variants;
		if (row.status !== 'pending' || !renderings || row.to === undefined) return row;
		const rest = { ...row };
		delete rest.variants;
		renderings.forEach((r, i) => {
			if (r.ucs2 === undefined) return;
			const f = this.forecast[i];
			f.ucs2Rows++;
			for (const c of r.ucs2) if (!f.ucs2Characters.includes(c)) f.ucs2Characters += c;
		});
		if (inTest(this.campaign, row.to, this.share)) {
			const i = this.nextTest++ % renderings.length;
			const f = this.forecast[i];
			f.testRows++;
			f.testSegments += renderings[i].segments;
			const picked: ImportRow = { ...rest, ...renderings[i], variant: i + 1 };
			if (renderings[i].ucs2 === undefined) delete picked.ucs2;
			return picked;
		}
		renderings.forEach((r, i) => {
			this.forecast[i].restRows++;
			this.forecast[i].restSegments += r.segments;
		});
		if (!this.hold) return rest;
		return {
			...rest,
			status: 'held',
			// Every text, with its segments: the decision takes the winner's in one statement.
			text: JSON.stringify(renderings.map((r) => [r.text ?? '', r.segments])),
			segments: Math.max(...renderings.map((r) => r.segments)),
		};
	}
}
