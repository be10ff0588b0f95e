import { isPostgresUrl } from '../storage/dbLocation';
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, extname, join, resolve } from 'node:path';
import YAML from 'yaml';
import { ConfigError } from './configError';
import { applyEnvironment, CONFIG_ENVIRONMENT } from './configEnvironment';
import { describeIssues } from './describeIssue';
import { workerConfigSchema, type WorkerConfig } from './workerConfigSchema';

function parseText(file: string, source: string): unknown {
	const ext = extname(file).toLowerCase();
	if (ext === '.json') {
		try {
			return JSON.parse(source);
		} catch (error) {
			throw new ConfigError(file, [jsonProblem(source, error as Error)]);
		}
	}
	const doc = YAML.parseDocument(source, { prettyErrors: true, uniqueKeys: true });
	if (doc.errors.length > 0) {
		throw new ConfigError(
			file,
			doc.errors.map((e) => `line ${e.linePos?.[0].line ?? '?'}: ${e.message.split('\n')[0]}`),
		);
	}
	return doc.toJS();
}

/**
 * What is wrong with a JSON config, and where, without the stretch of text around it that
 * V8 quotes in some messages: that text may be a secret.
 */
function jsonProblem(source: string, error: Error): string {
	const what = error.message
		.replace(/,\s*(\.\.\.)?".*$/s, '')
		.replace(/\s*in JSON at position \d+.*$/s, '');
	const at = /at position (\d+)/.exec(error.message);
	if (!at) return `not valid JSON: ${what}`;
	const before = source.slice(0, Number(at[1]));
	return `not valid JSON: ${what} at line ${before.split('\n').length}, column ${before.length - before.lastIndexOf('\n')}`;
}

/**
 * Reads a worker config (YAML, or JSON by extension), fills gaps from the environment,
 * and validates it whole: the error lists every problem, each with its path, so a person
 * fixes them all at once. Relative paths are read from the config's own folder, as the
 * daemon's working directory is rarely where the config lives; `~/` starts at the home
 * directory.
 */
export function loadWorkerConfig(file: string, env: NodeJS.ProcessEnv = process.env): WorkerConfig {
	return loadParsed(file, env);
}

/** Settings a start cannot do without and the environment may supply, with a value of the right form. */
const REQUIRED_FROM_ENVIRONMENT: Record<string, string> = {
	CLOUDTEL_BASE_URL: 'http://127.0.0.1:1',
	CLOUDTEL_ACCOUNT_SID: 'left-to-the-environment',
	CLOUDTEL_AUTH_TOKEN: 'left-to-the-environment',
	CLOUDTEL_PUBLIC_URL: 'http://127.0.0.1:1',
	CLOUDTEL_CALLBACK_SECRET: 'left-to-the-environment',
};

/**
 * For `--check`, which validates the file, often in a shell without the service's
 * environment (a systemd EnvironmentFile): the config as it would load, and the required
 * settings it leaves to variables that are not set here, each as `path (VARIABLE)`.
 */
export function loadWorkerConfigForCheck(
	file: string,
	env: NodeJS.ProcessEnv = process.env,
): { config: WorkerConfig; unset: string[] } {
	const { raw } = loadRaw(file);
	const unset = CONFIG_ENVIRONMENT.filter(({ path, variable }) => {
		if (!(variable in REQUIRED_FROM_ENVIRONMENT) || (env[variable] ?? '') !== '') return false;
		const section = raw[path[0]];
		return (
			typeof section !== 'object' ||
			section === null ||
			(section as Record<string, unknown>)[path[1]] === undefined
		);
	});
	const filled = {
		...env,
		...Object.fromEntries(
			unset.map(({ variable }) => [variable, REQUIRED_FROM_ENVIRONMENT[variable]]),
		),
	};
	return {
		config: loadParsed(file, filled),
		unset: unset.map(({ path, variable }) => `${path.join('.')} (${variable})`),
	};
}

function loadRaw(file: string): { raw: Record<string, unknown> } {
	let source: string;
	try {
		source = readFileSync(file, 'utf8');
	} catch (error) {
		throw new ConfigError(file, [`cannot be read: ${(error as Error).message}`]);
	}
	const raw = parseText(file, source) ?? {};
	if (typeof raw !== 'object' || Array.isArray(raw))
		throw new ConfigError(file, ['(top level): must be a mapping of settings']);
	return { raw: raw as Record<string, unknown> };
}

function loadParsed(file: string, env: NodeJS.ProcessEnv): WorkerConfig {
	const { raw } = loadRaw(file);
	applyEnvironment(raw as Record<string, unknown>, env);
	// CLOUDTEL_DB keeps a Postgres password out of the config file.
	if ((raw as Record<string, unknown>).db === undefined && env.CLOUDTEL_DB)
		(raw as Record<string, unknown>).db = env.CLOUDTEL_DB;
	const parsed = workerConfigSchema.safeParse(raw);
	if (!parsed.success) throw new ConfigError(file, describeIssues(parsed.error.issues, raw));
	const config = parsed.data;
	const base = dirname(resolve(file));
	const home = env.HOME || homedir();
	// `~/` is the user's home, so a config kept beside its CSVs need not keep its database there too.
	const path = (p: string) =>
		p === '~' || p.startsWith('~/') ? join(home, p.slice(1)) : resolve(base, p);
	if (!isPostgresUrl(config.db)) config.db = path(config.db);
	for (const c of config.campaigns) c.csv = path(c.csv);
	return config;
}

/**
 * The environment variables that supply a setting of this config (the file leaving it
 * out), by name. A running worker's environment is the one it was started with: a reload
 * reads the file again, never these.
 */
export function settingsFromEnvironment(
	file: string,
	env: NodeJS.ProcessEnv = process.env,
): string[] {
	let raw: unknown;
	try {
		raw = parseText(file, readFileSync(file, 'utf8')) ?? {};
	} catch {
		return [];
	}
	if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return [];
	const top = raw as Record<string, unknown>;
	const given = (path: readonly string[]) => {
		const section = top[path[0]];
		return (
			typeof section === 'object' &&
			section !== null &&
			(section as Record<string, unknown>)[path[1]] !== undefined
		);
	};
	const used = CONFIG_ENVIRONMENT.filter(
		(e) => env[e.variable] !== undefined && env[e.variable] !== '' && !given(e.path),
	).map((e) => e.variable);
	if (top.db === undefined && env.CLOUDTEL_DB) used.push('CLOUDTEL_DB');
	return used;
}
