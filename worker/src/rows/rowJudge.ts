import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { decodeVerdicts, encodeRows, transferOf, type EncodedVerdicts } from './rowBatchCodec';
import type { RowInput, RowRules, RowVerdict } from './rowRules';
import { RowValidator } from './rowValidator';

/** Judges batches of rows, in this thread or spread over worker threads; answers in order asked. */
export interface RowJudge {
	judge(rows: RowInput[], now: number): Promise<RowVerdict[]>;
	close(): Promise<void>;
}

export function createRowJudge(rules: RowRules, threads: number): RowJudge {
	const script = join(__dirname, 'validatorThread.js');
	// Under the TypeScript test runner there is no compiled thread script: judge inline.
	if (threads > 0 && existsSync(script)) return new ThreadPoolJudge(rules, threads, script);
	return new InlineJudge(rules);
}

class InlineJudge implements RowJudge {
	private readonly validator: RowValidator;
	constructor(rules: RowRules) {
		this.validator = new RowValidator(rules);
	}
	async judge(rows: RowInput[], now: number): Promise<RowVerdict[]> {
		return rows.map((row) => this.validator.validate(row, now));
	}
	async close(): Promise<void> {}
}

const THREAD_OLD_GENERATION_MB = 256;

interface Job {
	resolve: (v: RowVerdict[]) => void;
	reject: (e: Error) => void;
}

/**
 * Number parsing with the full metadata is most of the cost of a row, and it needs no
 * shared state, so batches go round-robin to threads while the main thread keeps reading.
 */
class ThreadPoolJudge implements RowJudge {
	private readonly workers: Worker[] = [];
	private readonly jobs = new Map<number, Job>();
	private next = 0;
	private failure: Error | undefined;

	constructor(rules: RowRules, threads: number, script: string) {
		for (let i = 0; i < threads; i++) {
			// Each batch is garbage once judged: a small young generation collects it as well as
			// V8's default one, at a fraction of the resident memory per thread. A stated old
			// generation limit makes V8 grow that generation by ~1.3x its live size between full
			// collections instead of up to 4x (its factor for a heap allowed gigabytes): the
			// thread holds ~10 MB alive and had let ~35 MB of dead rows pile up. 256 MB is far
			// above what a batch can hold (its records come from one 32 KB read, or one record
			// of at most 1,000,000 characters).
			const worker = new Worker(script, {
				workerData: rules,
				resourceLimits: {
					maxYoungGenerationSizeMb: 8,
					maxOldGenerationSizeMb: THREAD_OLD_GENERATION_MB,
				},
			});
			worker.on('message', (msg: { id: number; verdicts?: EncodedVerdicts; error?: string }) => {
				const job = this.jobs.get(msg.id);
				if (!job) return;
				this.jobs.delete(msg.id);
				if (msg.verdicts) job.resolve(decodeVerdicts(msg.verdicts));
				else job.reject(new Error(msg.error ?? 'row validator failed'));
			});
			worker.on('error', (error) => this.fail(error));
			this.workers.push(worker);
		}
	}

	private fail(error: Error): void {
		this.failure = error;
		for (const job of this.jobs.values()) job.reject(error);
		this.jobs.clear();
	}

	judge(rows: RowInput[], now: number): Promise<RowVerdict[]> {
		if (this.failure) return Promise.reject(this.failure);
		const id = this.next++;
		return new Promise((resolve, reject) => {
			this.jobs.set(id, { resolve, reject });
			const encoded = encodeRows(rows);
			this.workers[id % this.workers.length].postMessage(
				{ id, rows: encoded, now },
				transferOf(encoded),
			);
		});
	}

	async close(): Promise<void> {
		await Promise.all(this.workers.map((w) => w.terminate()));
	}
}
