import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { openCsv } from '../../csv/openCsv';
import { FatalError } from '../../errors';
import { PRIVATE_MODE } from '../../storage/privateFile';
import { ApiError, invalid } from './apiError';

/** Pieces a CSV is kept in, in the database: small enough for one row each, on both backends. */
export const CSV_PIECE_BYTES = 1024 * 1024;

export interface ReceivedCsv {
	/** SHA-256 of the whole upload. */
	hash: string;
	/** Data rows, bad ones included (the campaign reports them by line, as `campaign run` does). */
	rows: number;
	header: string[];
	pieces: Buffer[];
}

/**
 * A CSV body, streamed to a private file as it arrives (never held whole while it comes),
 * refused past `maxBytes` (413), then read once by the campaign engine's own reader: its
 * header and rows counted, a file it cannot read (not UTF-8, no header) refused naming
 * why. The file is removed afterwards; the pieces go to the database.
 */
export async function receiveCsv(
	body: Readable,
	dir: string,
	maxBytes: number,
): Promise<ReceivedCsv> {
	mkdirSync(dir, { recursive: true, mode: 0o700 });
	const path = join(dir, `upload-${randomUUID()}.csv`);
	const file = await open(path, 'w', PRIVATE_MODE);
	const hasher = createHash('sha256');
	let bytes = 0;
	try {
		let tooLarge = false;
		let cutOff: NodeJS.Timeout | undefined;
		try {
			for await (const chunk of body as AsyncIterable<Buffer>) {
				bytes += chunk.length;
				// Past the cap the rest is read and dropped (for 5 s at most), not written: the
				// sender then sees the 413 rather than a reset.
				if (bytes > maxBytes && !tooLarge) {
					tooLarge = true;
					cutOff = setTimeout(() => body.destroy(), 5000);
				}
				if (tooLarge) continue;
				hasher.update(chunk);
				await file.write(chunk);
			}
		} finally {
			clearTimeout(cutOff);
			await file.close();
		}
		if (tooLarge) {
			throw new ApiError(
				'too_large',
				`the CSV is larger than ${maxBytes.toLocaleString('en-US')} bytes, this worker's limit for one upload (server.apiMaxCsvBytes); send the recipients as JSON pages instead`,
			);
		}
		if (bytes === 0)
			throw invalid([
				{ field: 'csv', message: 'the CSV is empty: it needs a header line and rows' },
			]);
		let rows = 0;
		let header: string[];
		try {
			const csv = await openCsv(path);
			header = csv.header;
			for await (const batch of csv.batches) rows += batch.items.length;
		} catch (error) {
			if (error instanceof FatalError)
				throw invalid([{ field: 'csv', message: error.message.replace(path, 'the CSV') }]);
			throw error;
		}
		const pieces: Buffer[] = [];
		const reader = await open(path, 'r');
		try {
			for (let at = 0; at < bytes; at += CSV_PIECE_BYTES) {
				const piece = Buffer.alloc(Math.min(CSV_PIECE_BYTES, bytes - at));
				await reader.read(piece, 0, piece.length, at);
				pieces.push(piece);
			}
		} finally {
			await reader.close();
		}
		return { hash: hasher.digest('hex'), rows, header, pieces };
	} finally {
		await rm(path, { force: true });
	}
}
