import { ErrorCodes } from '../errorCodes';
import type { ListOnlineLoginsParams } from '../types/onlineLogin';
import { violation, type Violation } from '../violation';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 1000;

export interface ListParamsResult {
	violations: Violation[];
	params: Required<Omit<ListOnlineLoginsParams, 'PageToken'>> & { PageToken?: string };
}

/** Query values arrive as strings; whole numbers written as digits are accepted. */
function wholeNumber(value: unknown): number | undefined {
	if (typeof value === 'number') return Number.isSafeInteger(value) ? value : undefined;
	if (typeof value === 'string' && /^\d{1,15}$/.test(value.trim())) return Number(value.trim());
	return undefined;
}

function single(value: unknown): unknown {
	return Array.isArray(value) ? value[value.length - 1] : value;
}

/** `defaultCount` is for lists of the sandbox's own control API; the provider's lists give 50. */
export function validateListOnlineLogins(
	query: Record<string, unknown>,
	defaultCount = DEFAULT_PAGE_SIZE,
): ListParamsResult {
	const violations: Violation[] = [];
	let count = defaultCount;
	let skip = 0;
	const rawCount = single(query.Results_Count);
	if (rawCount !== undefined && rawCount !== '') {
		const n = wholeNumber(rawCount);
		if (n === undefined || n < 1 || n > MAX_PAGE_SIZE) {
			violations.push(
				violation(
					'Results_Count',
					ErrorCodes.OutOfRange,
					`Results_Count must be a whole number from 1 to ${MAX_PAGE_SIZE}.`,
				),
			);
		} else count = n;
	}
	const rawSkip = single(query.Results_Skip);
	if (rawSkip !== undefined && rawSkip !== '') {
		const n = wholeNumber(rawSkip);
		if (n === undefined || n < 0)
			violations.push(
				violation(
					'Results_Skip',
					ErrorCodes.OutOfRange,
					'Results_Skip must be a whole number, 0 or more.',
				),
			);
		else skip = n;
	}
	const token = single(query.PageToken);
	const params: ListParamsResult['params'] = { Results_Count: count, Results_Skip: skip };
	if (typeof token === 'string' && token !== '') params.PageToken = token;
	return { violations, params };
}
