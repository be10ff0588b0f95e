/** `['campaigns', 2, 'cron']` reads `campaigns[2].cron`, as a person would write it. */
export function configPath(path: readonly PropertyKey[]): string {
	let out = '';
	for (const key of path) {
		if (typeof key === 'number') out += `[${key}]`;
		else out += out === '' ? String(key) : `.${String(key)}`;
	}
	return out;
}
