/**
 * Settings a config may leave to the environment, so that secrets need not sit in a file
 * beside the CSVs. The config's own value wins.
 */
export const CONFIG_ENVIRONMENT: readonly { path: readonly string[]; variable: string }[] = [
	{ path: ['provider', 'baseUrl'], variable: 'CLOUDTEL_BASE_URL' },
	{ path: ['provider', 'accountSid'], variable: 'CLOUDTEL_ACCOUNT_SID' },
	{ path: ['provider', 'authToken'], variable: 'CLOUDTEL_AUTH_TOKEN' },
	{ path: ['server', 'publicUrl'], variable: 'CLOUDTEL_PUBLIC_URL' },
	{ path: ['server', 'secret'], variable: 'CLOUDTEL_CALLBACK_SECRET' },
	{ path: ['server', 'previousSecret'], variable: 'CLOUDTEL_PREVIOUS_CALLBACK_SECRET' },
	{ path: ['server', 'reportToken'], variable: 'CLOUDTEL_REPORT_TOKEN' },
	{ path: ['server', 'apiToken'], variable: 'CLOUDTEL_API_TOKEN' },
	{ path: ['smtp', 'user'], variable: 'CLOUDTEL_SMTP_USER' },
	{ path: ['smtp', 'password'], variable: 'CLOUDTEL_SMTP_PASSWORD' },
];

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Fills what the config leaves out from the environment. A section that the config does
 * not have at all is created only for the required ones (provider, server): an SMTP
 * password in the environment does not invent an SMTP server.
 */
export function applyEnvironment(raw: Record<string, unknown>, env: NodeJS.ProcessEnv): void {
	// Present, if empty, so that what is missing is named field by field.
	for (const section of ['provider', 'server']) raw[section] ??= {};
	for (const { path, variable } of CONFIG_ENVIRONMENT) {
		const value = env[variable];
		if (value === undefined || value === '') continue;
		const [section, key] = path;
		const target = raw[section];
		if (isRecord(target) && target[key] === undefined) target[key] = value;
	}
}

/** The variable that could have supplied the setting at `path`, if any. */
export function environmentFor(path: readonly PropertyKey[]): string | undefined {
	return CONFIG_ENVIRONMENT.find(
		(e) => e.path.length === path.length && e.path.every((p, i) => p === path[i]),
	)?.variable;
}
