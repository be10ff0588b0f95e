import { readFileSync } from 'node:fs';

/**
 * A ```sh or ```bash block of a README. Its fence may say how the test runs it:
 * `no-run: why` (never run), `daemon=URL` (started in the background, ready once URL answers,
 * stopped after the README's last block), `exit=N` (the exit code it must end with; else 0).
 * A ```text output block right after it is a run of lines its output must contain (`...`
 * standing for one line that changes from run to run).
 */
export interface ShellBlock {
	/** Where its fence is: README path and line, counted from 1. */
	where: string;
	body: string;
	noRun?: string;
	daemon?: string;
	exit: number;
	output?: string[];
}

const FENCE = /^```(\S*)[ \t]*(.*)$/;

export function shellBlocks(path: string, name: string): ShellBlock[] {
	const lines = readFileSync(path, 'utf8').split('\n');
	const blocks: ShellBlock[] = [];
	let last: ShellBlock | undefined;
	for (let i = 0; i < lines.length; i++) {
		const fence = FENCE.exec(lines[i]);
		if (!fence) continue;
		const start = i;
		const body: string[] = [];
		while (++i < lines.length && lines[i] !== '```') body.push(lines[i]);
		const [, lang, info] = fence;
		if (lang === 'sh' || lang === 'bash') {
			const noRun = /^no-run:\s*(.+)$/.exec(info);
			if (info.startsWith('no-run') && !noRun)
				throw new Error(`${name}:${start + 1}: no-run needs a reason ("no-run: why")`);
			last = {
				where: `${name}:${start + 1}`,
				body: body.join('\n'),
				noRun: noRun?.[1],
				daemon: /(?:^|\s)daemon=(\S+)/.exec(info)?.[1],
				exit: Number(/(?:^|\s)exit=(\d+)/.exec(info)?.[1] ?? 0),
			};
			blocks.push(last);
		} else if (lang === 'text' && info === 'output') {
			if (!last || blocks.at(-1) !== last)
				throw new Error(`${name}:${start + 1}: an output block follows no shell block`);
			last.output = body;
		} else last = undefined;
	}
	return blocks;
}

/**
 * What a person reads on the terminal, line by line: colours and the redrawn progress bar
 * dropped, durations and rates (the numbers with a decimal point) masked, as they vary by run.
 */
/** The escape that starts a terminal's colour and cursor codes. */
const ESC = String.fromCharCode(27);

export function terminalLines(output: string): string[] {
	return output
		.replace(new RegExp(`${ESC}\\[[0-9;?]*[A-Za-z]`, 'g'), '')
		.split(/\r\n|\n|\r/)
		.map(maskLine)
		.filter((l) => l !== '');
}

export function maskLine(line: string): string {
	return line.replace(/\d+\.\d+/g, 'N.N').trimEnd();
}

/** Whether `want` appears in `got` as consecutive lines; a line `...` stands for any one line. */
export function containsRun(got: string[], want: string[]): boolean {
	const w = want.map(maskLine).filter((l) => l !== '');
	const same = (a: string, b: string) => a === b || b.trim() === '...';
	for (let i = 0; i + w.length <= got.length; i++)
		if (w.every((line, j) => same(got[i + j], line))) return true;
	return false;
}
