import { isPostgresUrl } from '../store/dbLocation';
import { readFileSync } from 'node:fs';
import { dirname, extname, resolve } from 'node:path';
import YAML from 'yaml';
import type { z } from 'zod';
import { ConfigError } from './configError';
import { applyEnvironment, environmentFor } from './configEnvironment';
import { configPath } from './configPath';
import { workerConfigSchema, type WorkerConfig } from './workerConfigSchema';

function describeIssue(issue: z.core.$ZodIssue, raw: unknown): string[] {
	if (issue.code === 'unrecognized_keys') return issue.keys.map((k) => `${configPath([...issue.path, k])}: is not a setting here (a typo?)`);
	const at = configPath(issue.path) || '(top level)';
	if (valueAt(raw, issue.path) === undefined && issue.code === 'invalid_type') {
		const variable = environmentFor(issue.path);
		return [`${at}: is required${variable ? ` (here, or ${variable} in the environment)` : ''}`];
	}
	return [`${at}: ${issue.message}`];
}

function valueAt(raw: unknown, path: readonly PropertyKey[]): unknown {
	let v = raw;
	for (const key of path) {
		if (typeof v !== 'object' || v === null) return undefined;
		v = (v as Record<PropertyKey, unknown>)[key];
	}
	return v;
}

function parseText(file: string, source: string): unknown {
	const ext = extname(file).toLowerCase();
	if (ext === '.json') {
		try {
			return JSON.parse(source);
		} catch (error) {
			throw new ConfigError(file, [`not valid JSON: ${(error as Error).message}`]);
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
 * Reads a worker config (YAML, or JSON by extension), fills gaps from the environment,
 * and validates it whole: the error lists every problem, each with its path, so a person
 * fixes them all at once. Relative paths are read from the config's own folder, as the
 * daemon's working directory is rarely where the config lives.
 */
export function loadWorkerConfig(file: string, env: NodeJS.ProcessEnv = process.env): WorkerConfig {
	let source: string;
	try {
		source = readFileSync(file, 'utf8');
	} catch (error) {
		throw new ConfigError(file, [`cannot be read: ${(error as Error).message}`]);
	}
	const raw = parseText(file, source) ?? {};
	if (typeof raw !== 'object' || Array.isArray(raw)) throw new ConfigError(file, ['(top level): must be a mapping of settings']);
	applyEnvironment(raw as Record<string, unknown>, env);
	// CLOUDTEL_DB keeps a Postgres password out of the config file.
	if ((raw as Record<string, unknown>).db === undefined && env.CLOUDTEL_DB) (raw as Record<string, unknown>).db = env.CLOUDTEL_DB;
	const parsed = workerConfigSchema.safeParse(raw);
	if (!parsed.success) throw new ConfigError(file, parsed.error.issues.flatMap((i) => describeIssue(i, raw)));
	const config = parsed.data;
	const base = dirname(resolve(file));
	if (!isPostgresUrl(config.db)) config.db = resolve(base, config.db);
	for (const c of config.campaigns) c.csv = resolve(base, c.csv);
	return config;
}
