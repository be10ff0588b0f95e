import pino, { type Logger as Pino } from 'pino';
import { maskPhoneNumbers } from './phoneMask';
import { Redactor } from './redactor';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFields = Record<string, unknown>;

export interface Logger {
	debug(msg: string, fields?: LogFields): void;
	info(msg: string, fields?: LogFields): void;
	warn(msg: string, fields?: LogFields): void;
	error(msg: string, fields?: LogFields): void;
}

const SECRET_KEY = /^(authtoken|password|pass|secret|authorization)$/i;

export interface LogSettings {
	/** Lines below it are dropped. */
	level: LogLevel;
	/** Phone numbers as they are, or masked (+6141****103). */
	phoneNumbers: 'masked' | 'full';
}

/**
 * Fields with a secret's name blanked and errors as their name, message and code, at any
 * depth: pino's own `redact` takes paths, and a secret may sit anywhere in a field.
 */
function cleaned(value: unknown, depth = 0): unknown {
	if (value instanceof Error)
		return { name: value.name, message: value.message, code: (value as { code?: unknown }).code };
	if (typeof value !== 'object' || value === null || depth > 32) return value;
	if (Array.isArray(value)) return value.map((v) => cleaned(v, depth + 1));
	const proto = Object.getPrototypeOf(value) as unknown;
	if (proto !== Object.prototype && proto !== null) return value;
	const out: LogFields = {};
	for (const [key, v] of Object.entries(value))
		out[key] =
			SECRET_KEY.test(key) && v !== undefined && v !== '' ? '[redacted]' : cleaned(v, depth + 1);
	return out;
}

/**
 * One JSON object per line (pino's), for whatever collects a daemon's output. Secrets are
 * removed twice over: fields with a secret's name are blanked, and any known secret value
 * that still made it into a line (inside an error message, say) is cut out of the text.
 * Phone numbers are masked wherever they appear, unless the settings ask for them whole: a
 * log is kept longer, and read by more people, than the ledger.
 */
export class JsonLogger implements Logger {
	private readonly pino: Pino;

	/** `to`: where lines go, or (from `child`) the pino logger to write through. */
	constructor(
		to: ((line: string) => void) | Pino,
		redactor: Redactor = new Redactor([]),
		base: LogFields = {},
		settings: LogSettings = { level: 'info', phoneNumbers: 'masked' },
	) {
		if (typeof to !== 'function') {
			this.pino = to;
			return;
		}
		const masked = settings.phoneNumbers === 'full' ? (t: string) => t : maskPhoneNumbers;
		this.pino = pino(
			{
				level: settings.level,
				base: cleaned(base) as LogFields,
				timestamp: pino.stdTimeFunctions.isoTime,
				formatters: {
					level: (label) => ({ level: label }),
					log: (fields) => cleaned(fields) as LogFields,
				},
			},
			{ write: (line: string) => to(masked(redactor.redact(line))) },
		);
	}

	child(fields: LogFields): JsonLogger {
		return new JsonLogger(this.pino.child(cleaned(fields) as LogFields));
	}

	debug(msg: string, fields: LogFields = {}): void {
		this.pino.debug(fields, msg);
	}
	info(msg: string, fields: LogFields = {}): void {
		this.pino.info(fields, msg);
	}
	warn(msg: string, fields: LogFields = {}): void {
		this.pino.warn(fields, msg);
	}
	error(msg: string, fields: LogFields = {}): void {
		this.pino.error(fields, msg);
	}
}
