import { readFileSync } from 'node:fs';

/**
 * Which process a pid stands for, so that a pid the system has since given to another
 * process is not taken for the one that wrote a spool. On Linux: the boot (its boot id)
 * and the moment the process started, counted in clock ticks from that boot (field 22 of
 * /proc/<pid>/stat). Neither depends on the wall clock, and no two processes of one boot
 * share both a pid and a start. Elsewhere there is no identity, and a pid alone is asked.
 */
export interface ProcessIdentity {
	/** The boot id without its dashes: 32 hex digits. */
	boot: string;
	/** Clock ticks from boot to the process's start. */
	start: string;
}

/** `/proc/sys/kernel/random/boot_id`, read once: it cannot change while this process lives. */
let bootId: string | undefined | null = null;

function currentBoot(): string | undefined {
	if (bootId === null) {
		try {
			const id = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8')
				.trim()
				.replace(/-/g, '')
				.toLowerCase();
			bootId = /^[0-9a-f]{32}$/.test(id) ? id : undefined;
		} catch {
			bootId = undefined;
		}
	}
	return bootId;
}

/** The start of `pid` in clock ticks since boot; undefined when /proc does not say. */
function startTicks(pid: number | 'self'): string | undefined {
	let stat: string;
	try {
		stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
	} catch {
		return undefined;
	}
	// The command name (field 2) is in parentheses and may hold spaces and parentheses
	// itself: fields are counted from the last ')'; what follows it is field 3.
	const start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[22 - 3];
	return start !== undefined && /^\d+$/.test(start) ? start : undefined;
}

/** This process's identity, or undefined where the system gives none (not Linux). */
export function ownIdentity(): ProcessIdentity | undefined {
	const boot = currentBoot();
	const start = startTicks('self');
	return boot && start ? { boot, start } : undefined;
}

/**
 * Whether the process that had `identity` as `pid` is still running: true, false, or
 * undefined when this system cannot tell (no /proc, or a process /proc hides from us),
 * and the caller falls back on the pid alone.
 */
export function isSameProcess(pid: number, identity: ProcessIdentity): boolean | undefined {
	const boot = currentBoot();
	if (boot === undefined) return undefined;
	// Written in an earlier boot: every process of that boot is gone, whatever holds the pid now.
	if (boot !== identity.boot) return false;
	const start = startTicks(pid);
	if (start === undefined) return undefined;
	return start === identity.start;
}
