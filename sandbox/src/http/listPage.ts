import { ErrorCodes, validateListOnlineLogins, violation } from '../../../api';
import { invalid } from './apiError';
import { decodePageToken, encodePageToken } from './pageToken';

export interface ListPage<T> {
	page: T[];
	TotalCount: number;
	/** Empty on the last page. */
	NextPageToken: string;
}

/**
 * One page of a list in the contract's style: `Results_Count` (1..1000), `Results_Skip`,
 * and `PageToken`, which overrides the skip. Bad paging is a 400 naming the parameter.
 */
export function listPage<T>(
	all: readonly T[],
	query: Record<string, unknown>,
	defaultCount?: number,
): ListPage<T> {
	const { violations, params } = validateListOnlineLogins(query, defaultCount);
	let skip = params.Results_Skip;
	if (params.PageToken !== undefined) {
		const fromToken = decodePageToken(params.PageToken);
		if (fromToken === undefined)
			violations.push(
				violation(
					'PageToken',
					ErrorCodes.InvalidPageToken,
					'PageToken is not a token this interface issued.',
				),
			);
		else skip = fromToken;
	}
	if (violations.length > 0) throw invalid(violations);
	const page = all.slice(skip, skip + params.Results_Count);
	const next = skip + page.length;
	return {
		page,
		TotalCount: all.length,
		NextPageToken: next < all.length ? encodePageToken(next) : '',
	};
}
