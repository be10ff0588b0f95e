import { parentPort, workerData } from 'node:worker_threads';
import { forEachRow, transferOf, VerdictEncoder, type EncodedRows } from './rowBatchCodec';
import type { RowRules } from './rowRules';
import { RowValidator } from './rowValidator';

// A worker thread of the row judge: the same validator, fed batches by the main thread.
const validator = new RowValidator(workerData as RowRules);
parentPort!.on('message', (msg: { id: number; rows: EncodedRows; now: number }) => {
	try {
		const encoder = new VerdictEncoder(msg.rows.lines.length);
		forEachRow(msg.rows, (row) => encoder.add(validator.validate(row, msg.now)));
		const verdicts = encoder.done();
		parentPort!.postMessage({ id: msg.id, verdicts }, transferOf(verdicts));
	} catch (error) {
		parentPort!.postMessage({ id: msg.id, error: (error as Error).message });
	}
});
