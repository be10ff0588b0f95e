/**
 * Tracked links (schema 9): a token per recipient and URL, and the clicks on it. Tokens
 * name a row, never a number: `contact forget` erases them with the row.
 */
export function linkTablesSql(pg: boolean, IF_ABSENT: string): string {
	const BIG = pg ? 'BIGINT' : 'INTEGER';
	const BOOL = pg ? 'BOOLEAN' : 'INTEGER';
	const KEYED = pg ? '' : ' WITHOUT ROWID';
	return `
CREATE TABLE ${IF_ABSENT}links (
	token TEXT PRIMARY KEY,
	campaign TEXT NOT NULL,
	line INTEGER NOT NULL,
	url TEXT NOT NULL,
	-- Unix milliseconds: a token answers 410 once links.ttl has passed, and retention prunes it.
	created_at ${BIG} NOT NULL
)${KEYED};
CREATE INDEX ${IF_ABSENT}links_by_row ON links (campaign, line);
CREATE INDEX ${IF_ABSENT}links_by_age ON links (created_at);
-- One row per request that reached a token, keyed by its intake event: fed twice from a
-- spool, it counts once.
CREATE TABLE ${IF_ABSENT}link_clicks (
	click_key TEXT PRIMARY KEY,
	token TEXT NOT NULL,
	campaign TEXT NOT NULL,
	line INTEGER NOT NULL,
	at ${BIG} NOT NULL,
	prefetch ${BOOL} NOT NULL
)${KEYED};
CREATE INDEX ${IF_ABSENT}link_clicks_by_row ON link_clicks (campaign, line);
CREATE INDEX ${IF_ABSENT}link_clicks_by_token ON link_clicks (token);
`;
}
