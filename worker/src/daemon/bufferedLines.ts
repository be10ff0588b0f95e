import { writeSync } from 'node:fs';

/**
 * Log lines gathered and written once per turn of the event loop. A daemon in a burst logs
 * a few lines per reply, and each write to a pipe is a system call of its own; gathered,
 * a burst of a thousand replies costs a handful. Whatever is still gathered when the
 * process exits (process.exit included) is written then, synchronously.
 */
export function bufferedLines(write: (text: string) => void, fd = 1): (line: string) => void {
	let lines: string[] = [];
	let scheduled = false;
	const flush = () => {
		scheduled = false;
		if (lines.length === 0) return;
		const text = lines.join('');
		lines = [];
		write(text);
	};
	process.once('exit', () => {
		if (lines.length > 0) writeSync(fd, lines.join(''));
		lines = [];
	});
	return (line) => {
		lines.push(line);
		if (!scheduled) {
			scheduled = true;
			setImmediate(flush);
		}
	};
}
