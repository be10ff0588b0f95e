// Runs the built cloudtel CLI as a user would, with its JSON log on stdout, and samples
// its resident memory from /proc while it runs.
import { spawn } from 'node:child_process';
import { readFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './sandboxProcess.mjs';

export const outDir = join(root, 'bench', 'out');

export function benchFile(name) {
	mkdirSync(outDir, { recursive: true });
	return join(outDir, name);
}

export function runCli(args, env = {}) {
	return new Promise((resolve, reject) => {
		const started = performance.now();
		const child = spawn(process.execPath, [join(root, 'worker/bin/cloudtel.js'), ...args], {
			env: { ...process.env, ...env },
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let stdout = '';
		let stderr = '';
		let peakKb = 0;
		const sample = () => {
			try {
				const m = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
				if (m) peakKb = Math.max(peakKb, Number(m[1]));
			} catch {
				// gone already
			}
		};
		const timer = setInterval(sample, 50);
		child.stdout.on('data', (d) => {
			stdout += d;
			sample();
		});
		child.stderr.on('data', (d) => (stderr += d));
		child.on('error', reject);
		child.on('close', (code) => {
			clearInterval(timer);
			const events = stdout.split('\n').flatMap((l) => {
				try {
					return l.startsWith('{') ? [JSON.parse(l)] : [];
				} catch {
					return []; // a line of pretty-printed JSON (campaign report --json), not a log line
				}
			});
			resolve({
				code,
				seconds: (performance.now() - started) / 1000,
				peakMb: peakKb / 1024,
				events,
				summary: events.find((e) => e.event === 'summary'),
				stdout,
				stderr,
			});
		});
	});
}

/** A CSV of distinct valid AU mobiles in E.164, written once per size. */
export function e164Csv(name, rows) {
	const path = benchFile(name);
	let text = 'Phone,Name\n';
	for (let i = 0; i < rows; i++) text += `+614${String(10_000_000 + i).slice(-8)},N${i}\n`;
	writeFileSync(path, text);
	return path;
}
