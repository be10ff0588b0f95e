/** Every path of the interface with its methods, so a wrong method gets 405, not 404. */
const SEG = '[^/]+';
const ROUTES: ReadonlyArray<[RegExp, string[]]> = [
	[new RegExp(`^/v2/OnlineLogins/?$`, 'i'), ['GET']],
	[new RegExp(`^/v2/OnlineLogins/${SEG}/?$`, 'i'), ['GET', 'PATCH']],
	[new RegExp(`^/v2/Properties/${SEG}/?$`, 'i'), ['PATCH']],
	[new RegExp(`^/v2/Properties/${SEG}/OnlineLogins/?$`, 'i'), ['POST']],
	[new RegExp(`^/v2/Properties/${SEG}/Messages/?$`, 'i'), ['POST']],
	[new RegExp(`^/v2/Properties/${SEG}/BatchMessages/?$`, 'i'), ['POST']],
	[new RegExp(`^/v2/Properties/${SEG}/SipTrunk/?$`, 'i'), ['POST']],
	[new RegExp(`^/v2/Accounts/${SEG}/Addresses/?$`, 'i'), ['POST']],
	[new RegExp(`^/v2/Addresses/${SEG}/?$`, 'i'), ['DELETE']],
];

export function methodsFor(path: string): string[] {
	return ROUTES.find(([re]) => re.test(path))?.[1] ?? [];
}
