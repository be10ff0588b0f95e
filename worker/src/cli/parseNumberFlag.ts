import { UsageError } from '../errors';

export function parseNumberFlag(flag: string, value: string | undefined, fallback: number): number {
	if (value === undefined) return fallback;
	const n = Number(value);
	if (value.trim() === '' || !Number.isFinite(n) || n < 0) throw new UsageError(`${flag} must be a number, 0 or more (got "${value}")`);
	return n;
}
