import type { CampaignSummary } from '../campaign/campaignSummary';
import { formatSummary } from './formatSummary';
import { printable } from '../csv/printable';
import type { Progress, Reporter } from '../campaign/reporter';

const ROW_ERRORS_SHOWN = 20;

/**
 * For a person: a progress bar with rate and ETA redrawn on stderr when it is a terminal,
 * the first row errors, and the summary on stdout.
 */
export class TtyReporter implements Reporter {
	private rowErrors = 0;
	private bar = '';
	private last = 0;

	constructor(
		private readonly showBar: boolean,
		private readonly out: NodeJS.WriteStream = process.stdout,
		private readonly err: NodeJS.WriteStream = process.stderr,
	) {}

	private clearBar(): void {
		if (this.bar) {
			this.err.write('\r\x1b[2K');
			this.bar = '';
		}
	}

	private line(text: string): void {
		this.clearBar();
		this.err.write(printable(text) + '\n');
	}

	event(name: string, _fields: Record<string, unknown>, text: string): void {
		if (name === 'retry' && !this.showBar) return;
		this.line(text);
	}

	rowError(line: number, code: string, reason: string): void {
		this.rowErrors++;
		if (this.rowErrors <= ROW_ERRORS_SHOWN) this.line(`line ${line}: ${code}: ${reason}`);
		else if (this.rowErrors === ROW_ERRORS_SHOWN + 1)
			this.line('more row errors follow: the summary counts them and --out lists every one');
	}

	progress(p: Progress): void {
		if (!this.showBar) return;
		const now = performance.now();
		if (now - this.last < 100 && p.done < p.total) return;
		this.last = now;
		const width = 30;
		const fraction = p.total > 0 ? Math.min(1, p.done / p.total) : 0;
		const filled = Math.round(fraction * width);
		const eta =
			p.etaSeconds === undefined || !Number.isFinite(p.etaSeconds)
				? '--'
				: formatDuration(p.etaSeconds);
		const label = p.stage === 'read' ? 'reading' : p.stage === 'send' ? 'sending' : 'waiting';
		this.bar = `${label.padEnd(8)} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${p.done}/${p.total} ${p.unit}  ${p.rate.toFixed(0)}/s  ETA ${eta}`;
		this.err.write('\r\x1b[2K' + this.bar);
	}

	summary(s: CampaignSummary): void {
		this.clearBar();
		this.out.write(formatSummary(s).split('\n').map(printable).join('\n'));
	}

	close(): void {
		this.clearBar();
	}
}

function formatDuration(seconds: number): string {
	const s = Math.round(seconds);
	if (s < 60) return `${s}s`;
	if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
	return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}
