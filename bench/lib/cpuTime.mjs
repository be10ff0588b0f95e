// CPU time (user + system, ms) a process has used so far, read from /proc: profiles sample
// wall-clock time, so on a crowded machine they charge a process for time it waited for a
// core. Undefined where /proc is missing.
import { readdirSync, readFileSync } from 'node:fs';

const TICK_MS = 10; // USER_HZ is 100 on Linux

export function cpuMs(pid = process.pid) {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
	} catch {
		return undefined;
	}
}

/** CPU used by each named process between now and the returned function's call. */
export function cpuMeter(pids) {
	const start = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuMs(pid)]));
	return () =>
		Object.fromEntries(
			Object.entries(pids).map(([name, pid]) => [
				name,
				start[name] === undefined ? undefined : cpuMs(pid) - start[name],
			]),
		);
}

/** CPU time (ms) of each thread of a process so far, by thread name. */
export function threadCpuMs(pid) {
	const out = {};
	try {
		for (const tid of readdirSync(`/proc/${pid}/task`)) {
			const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
			const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
			const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
			out[`${name}:${tid}`] = (Number(fields[11]) + Number(fields[12])) * TICK_MS;
		}
	} catch {
		/* gone */
	}
	return out;
}
