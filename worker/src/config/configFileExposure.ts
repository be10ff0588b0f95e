import { readFileSync, statSync } from 'node:fs';

/**
 * Why the config file should not stay as it is: it holds a secret (the AuthToken, a token,
 * a password) and others than its owner may read it. Undefined when it is private, or
 * every secret comes from the environment.
 */
export function configFileExposure(path: string, secrets: readonly string[]): string | undefined {
	let mode: number;
	let text: string;
	try {
		mode = statSync(path).mode & 0o777;
		if ((mode & 0o077) === 0) return undefined;
		text = readFileSync(path, 'utf8');
	} catch {
		return undefined;
	}
	// A secret the environment supplies is not the file's, whatever else the file happens to contain.
	const fromEnvironment = new Set(Object.values(process.env));
	if (!secrets.some((s) => s.length > 0 && !fromEnvironment.has(s) && text.includes(s)))
		return undefined;
	return `the config ${path} holds secrets (the AuthToken, the callback secret, tokens or passwords) and can be read by others than its owner (mode ${mode.toString(8).padStart(3, '0')}): chmod 600 it, or give the secrets in the environment`;
}
