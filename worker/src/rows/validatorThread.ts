import { parentPort, workerData } from 'node:worker_threads';
import type { RowInput, RowRules } from './rowRules';
import { RowValidator } from './rowValidator';

// A worker thread of the row judge: the same validator, fed batches by the main thread.
const validator = new RowValidator(workerData as RowRules);
parentPort!.on('message', (msg: { id: number; rows: RowInput[]; now: number }) => {
	try {
		parentPort!.postMessage({ id: msg.id, verdicts: msg.rows.map((row) => validator.validate(row, msg.now)) });
	} catch (error) {
		parentPort!.postMessage({ id: msg.id, error: (error as Error).message });
	}
});
