import { sep } from 'node:path';

/**
 * A message for an API caller, without the server's paths: the engine names the CSV it
 * reads by its path (beside the database), which tells a caller where the worker keeps
 * its files. The campaign's CSV reads "the recipients' CSV"; any other path in the folder,
 * by its name alone.
 */
export function withoutServerPaths(text: string, dir: string): string {
	const inDir = new RegExp(`${escapeRegExp(dir + sep)}[^\\s"'()]+?\\.csv\\b`, 'g');
	return text
		.replace(inDir, "the recipients' CSV")
		.split(dir + sep)
		.join('')
		.split(dir)
		.join("the worker's folder");
}

function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
