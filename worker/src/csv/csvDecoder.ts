import { isUtf8 } from 'node:buffer';

/** The encodings `--encoding` takes besides UTF-8; latin1 is read as Windows-1252, as browsers do. */
// Null prototype: the key is the user's flag, and `--encoding constructor` must be refused
// as unknown, not found on Object.prototype.
export const SINGLE_BYTE_ENCODINGS: Readonly<Record<string, string>> = Object.freeze(
	Object.assign(Object.create(null) as Record<string, string>, {
		'windows-1252': 'windows-1252',
		cp1252: 'windows-1252',
		latin1: 'windows-1252',
		'iso-8859-1': 'windows-1252',
	}),
);

/** A byte UTF-8 cannot read: where it is, for a message that names the line. */
export class BadByte extends Error {
	constructor(
		/** From the start of the file, 0 first. */
		readonly offset: number,
		readonly byte: number,
		/** The text decoded before it, up to the bad byte. */
		readonly before: string,
	) {
		super(`byte 0x${byte.toString(16).toUpperCase().padStart(2, '0')} is not UTF-8`);
	}
}

/**
 * Bytes to text. A BOM decides (UTF-8, UTF-16 LE or BE); without one the file is UTF-8
 * unless `--encoding` names a single-byte code page. UTF-8 is checked, not repaired: a
 * Windows-1252 file read as UTF-8 would send "M\uFFFDller", so the first byte that is not
 * UTF-8 stops the read instead (BadByte).
 */
export class CsvDecoder {
	/** What the file turned out to be, once the first bytes are in. */
	encoding: string | undefined;
	private decoder: TextDecoder | undefined;
	private head: Buffer | undefined;
	/** The bytes of a UTF-8 character split across chunks. */
	private carry: Buffer | undefined;
	/** Bytes decoded before the current chunk. */
	private offset = 0;

	constructor(private readonly given?: string) {}

	write(chunk: Buffer): string {
		if (this.encoding === undefined) {
			this.head = this.head ? Buffer.concat([this.head, chunk]) : chunk;
			if (this.head.length < 3) return '';
			chunk = this.start(this.head);
			this.head = undefined;
		}
		return this.decode(chunk, false);
	}

	end(): string {
		if (this.encoding === undefined) {
			const head = this.head ?? Buffer.alloc(0);
			this.head = undefined;
			return this.decode(this.start(head), true);
		}
		return this.decode(Buffer.alloc(0), true);
	}

	/** Picks the encoding from the first bytes; returns them without their BOM. */
	private start(head: Buffer): Buffer {
		if (head[0] === 0xff && head[1] === 0xfe) return this.use('utf-16le', head, 2);
		if (head[0] === 0xfe && head[1] === 0xff) return this.use('utf-16be', head, 2);
		if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return this.use('utf-8', head, 3);
		if (this.given !== undefined)
			return this.use(SINGLE_BYTE_ENCODINGS[this.given.toLowerCase()] ?? this.given, head, 0);
		return this.use('utf-8', head, 0);
	}

	private use(encoding: string, head: Buffer, bom: number): Buffer {
		this.encoding = encoding;
		// UTF-8 is decoded here (checked, and faster); the others by TextDecoder, which ignores
		// the BOM already taken off.
		if (encoding !== 'utf-8')
			this.decoder = new TextDecoder(encoding, { fatal: true, ignoreBOM: true });
		this.offset = bom;
		return head.subarray(bom);
	}

	private decode(chunk: Buffer, end: boolean): string {
		if (this.decoder) {
			try {
				return this.decoder.decode(chunk, { stream: !end });
			} catch {
				// Only UTF-16 can fail here: a lone surrogate, or an odd byte at the end.
				throw new Error(
					`it starts with a ${this.encoding!.toUpperCase()} byte order mark but is not valid ${this.encoding!.toUpperCase()}`,
				);
			}
		}
		const data = this.carry ? Buffer.concat([this.carry, chunk]) : chunk;
		const cut = end ? data.length : completeLength(data);
		if (!isUtf8(data.subarray(0, cut))) {
			const bad = firstBadByte(data, cut);
			throw new BadByte(this.offset + bad, data[bad], data.toString('utf8', 0, bad));
		}
		this.carry = cut < data.length ? Buffer.from(data.subarray(cut)) : undefined;
		this.offset += cut;
		return data.toString('utf8', 0, cut);
	}
}

/** The length of `data` without a character its last bytes only start. */
function completeLength(data: Buffer): number {
	const n = data.length;
	for (let i = n - 1; i >= 0 && i >= n - 4; i--) {
		const b = data[i];
		if ((b & 0xc0) === 0x80) continue;
		const size = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
		return i + size > n ? i : n;
	}
	return n;
}

/** Where UTF-8 stops being valid in `data` (which is known not to be, up to `cut`). */
function firstBadByte(data: Buffer, cut: number): number {
	let i = 0;
	while (i < cut) {
		const b = data[i];
		const size =
			b < 0x80
				? 1
				: b >= 0xc2 && b <= 0xdf
					? 2
					: b >= 0xe0 && b <= 0xef
						? 3
						: b >= 0xf0 && b <= 0xf4
							? 4
							: 0;
		if (size === 0 || i + size > cut || !isUtf8(data.subarray(i, i + size))) return i;
		i += size;
	}
	return Math.min(i, data.length - 1);
}
