/**
 * A set of E.164 numbers kept as doubles in one typed array: up to 15 digits fit a double
 * exactly, and a million numbers take 16 MB instead of the ~80 MB of a Set of strings.
 */
export class NumberSet {
	private table: Float64Array;
	private count = 0;

	constructor(initialCapacity = 1 << 16) {
		let cap = 16;
		while (cap < initialCapacity * 2) cap <<= 1;
		this.table = new Float64Array(cap);
	}

	get size(): number {
		return this.count;
	}

	static key(e164: string): number {
		return Number(e164.slice(1));
	}

	has(e164: string): boolean {
		return this.find(this.table, NumberSet.key(e164)) < 0;
	}

	/** Adds it; false when it was already there. */
	add(e164: string): boolean {
		const key = NumberSet.key(e164);
		const slot = this.find(this.table, key);
		if (slot < 0) return false;
		this.table[slot] = key;
		if (++this.count * 2 > this.table.length) this.grow();
		return true;
	}

	/** The free slot for `key`, or -1 when `key` is present. 0 marks a free slot: no number is 0. */
	private find(table: Float64Array, key: number): number {
		const mask = table.length - 1;
		let i = hash(key) & mask;
		for (;;) {
			const v = table[i];
			if (v === 0) return i;
			if (v === key) return -1;
			i = (i + 1) & mask;
		}
	}

	private grow(): void {
		const old = this.table;
		this.table = new Float64Array(old.length * 2);
		for (const v of old) if (v !== 0) this.table[this.find(this.table, v)] = v;
	}
}

function hash(key: number): number {
	const lo = key % 0x100000000 | 0;
	const hi = Math.floor(key / 0x100000000) | 0;
	let h = Math.imul(lo ^ (hi * 0x27d4eb2d), 0x9e3779b1);
	h ^= h >>> 15;
	return Math.imul(h, 0x85ebca6b) >>> 0;
}
