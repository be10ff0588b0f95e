/**
 * A set of E.164 numbers kept as doubles in typed arrays: up to 15 digits fit a double
 * exactly, and a million numbers take ~11 MB instead of the ~80 MB of a Set of strings.
 *
 * The numbers are spread by hash over SHARDS open-addressing tables that grow one at a time.
 * One table doubling held the old and the new table at once: on a million-row list that was
 * 24 MB at the moment of growing, the largest single piece of a dry run's peak memory. A
 * shard growing holds 1/SHARDS of that extra. Tables fill to 3/4 before they grow (linear
 * probing stays short there on a hashed key), not 1/2: two fifths less memory per number.
 */
export class NumberSet {
	private readonly shards: Shard[];
	private count = 0;

	constructor(initialCapacity = 1 << 16) {
		let cap = MIN_SHARD;
		while (cap * SHARDS * MAX_LOAD < initialCapacity) cap <<= 1;
		this.shards = Array.from({ length: SHARDS }, () => ({
			table: new Float64Array(cap),
			count: 0,
		}));
	}

	get size(): number {
		return this.count;
	}

	static key(e164: string): number {
		return Number(e164.slice(1));
	}

	has(e164: string): boolean {
		const key = NumberSet.key(e164);
		const h = hash(key);
		return find(this.shards[h >>> SHARD_SHIFT].table, key, h) < 0;
	}

	/** Adds it; false when it was already there. */
	add(e164: string): boolean {
		const key = NumberSet.key(e164);
		const h = hash(key);
		const shard = this.shards[h >>> SHARD_SHIFT];
		const slot = find(shard.table, key, h);
		if (slot < 0) return false;
		shard.table[slot] = key;
		this.count++;
		if (++shard.count > shard.table.length * MAX_LOAD) grow(shard);
		return true;
	}
}

interface Shard {
	table: Float64Array;
	count: number;
}

const SHARDS = 64;
/** The hash's top bits pick the shard; its low bits the slot, so the two stay independent. */
const SHARD_SHIFT = 32 - Math.log2(SHARDS);
const MIN_SHARD = 256;
const MAX_LOAD = 0.75;

/** The free slot for `key`, or -1 when `key` is present. 0 marks a free slot: no number is 0. */
function find(table: Float64Array, key: number, h: number): number {
	const mask = table.length - 1;
	let i = h & mask;
	for (;;) {
		const v = table[i];
		if (v === 0) return i;
		if (v === key) return -1;
		i = (i + 1) & mask;
	}
}

function grow(shard: Shard): void {
	const old = shard.table;
	const table = new Float64Array(old.length * 2);
	for (const v of old) if (v !== 0) table[find(table, v, hash(v))] = v;
	shard.table = table;
}

function hash(key: number): number {
	const lo = key % 0x100000000 | 0;
	const hi = Math.floor(key / 0x100000000) | 0;
	let h = Math.imul(lo ^ (hi * 0x27d4eb2d), 0x9e3779b1);
	h ^= h >>> 15;
	return Math.imul(h, 0x85ebca6b) >>> 0;
}
