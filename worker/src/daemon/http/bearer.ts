/** The token of an `Authorization: Bearer <token>` header (the scheme in any case), if that is what it holds. */
export function bearerOf(authorization: string | undefined): string | undefined {
	return /^Bearer\s+(.+)$/i.exec(authorization ?? '')?.[1];
}
