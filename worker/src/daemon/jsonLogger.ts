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

const RANK: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

export interface LogSettings {
	/** Lines below it are dropped. */
	level: LogLevel;
	/** Phone numbers as they are, or masked (+6141****103). */
	phoneNumbers: 'masked' | 'full';
}

/**
 * One JSON object per line, for whatever collects a daemon's output. Secrets are removed
 * twice over: fields with a secret's name are blanked, and any known secret value that
 * still made it into a line (inside an error message, say) is cut out of the text. Phone
 * numbers are masked wherever they appear, unless the settings ask for them whole: a log
 * is kept longer, and read by more people, than the ledger.
 */
export class JsonLogger implements Logger {
	constructor(
		private readonly write: (line: string) => void,
		private readonly redactor: Redactor = new Redactor([]),
		private readonly base: LogFields = {},
		private readonly settings: LogSettings = { level: 'info', phoneNumbers: 'masked' },
	) {}

	child(fields: LogFields): JsonLogger {
		return new JsonLogger(this.write, this.redactor, { ...this.base, ...fields }, this.settings);
	}

	debug(msg: string, fields?: LogFields): void {
		this.log('debug', msg, fields);
	}
	info(msg: string, fields?: LogFields): void {
		this.log('info', msg, fields);
	}
	warn(msg: string, fields?: LogFields): void {
		this.log('warn', msg, fields);
	}
	error(msg: string, fields?: LogFields): void {
		this.log('error', msg, fields);
	}

	private log(level: LogLevel, msg: string, fields: LogFields = {}): void {
		if (RANK[level] < RANK[this.settings.level]) return;
		const line = JSON.stringify(
			{ time: new Date().toISOString(), level, msg, ...this.base, ...fields },
			(key, value: unknown) => {
				if (SECRET_KEY.test(key) && value !== undefined && value !== '') return '[redacted]';
				if (value instanceof Error)
					return {
						name: value.name,
						message: value.message,
						code: (value as { code?: unknown }).code,
					};
				return value;
			},
		);
		const text = this.redactor.redact(line);
		this.write((this.settings.phoneNumbers === 'full' ? text : maskPhoneNumbers(text)) + '\n');
	}
}
