import { FatalError } from '../errors';

/** A config that cannot be used: every problem, each naming its path, and exit 2. */
export class ConfigError extends FatalError {
	constructor(
		readonly file: string,
		readonly problems: string[],
	) {
		super(`the config ${file} is not valid:\n${problems.map((p) => `  ${p}`).join('\n')}`, 2);
	}
}
