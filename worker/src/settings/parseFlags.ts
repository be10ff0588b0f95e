import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from '../errors';

type FlagOptions = NonNullable<ParseArgsConfig['options']>;

/** A command's flags, strictly and without positionals: an unknown or malformed flag is a usage error naming it. */
export function parseFlags<const O extends FlagOptions>(args: string[], options: O) {
	try {
		return parseArgs({ args, options, strict: true, allowPositionals: false }).values;
	} catch (error) {
		throw new UsageError((error as Error).message);
	}
}
