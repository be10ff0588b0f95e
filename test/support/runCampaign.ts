import type { RunningSandbox } from '../../sandbox/src';
import {
	cli,
	envFor,
	sandboxMessages,
	type CliOptions,
	type CliResult,
	type SandboxMessage,
} from '../integration/worker/harness';

/** One `cloudtel campaign run` on the sandbox's demo Property, as a user would type it. */
export interface CampaignRun {
	csv: string;
	/** A SQLite file or a postgres:// URL. */
	db: string;
	/** `--name`; the CLI names the campaign after the CSV when left out. */
	name?: string;
	text: string;
	/** A worker's callback base (`…/callbacks/{secret}`): `--receipt-url` and `--reply-url` under it. */
	callbacks?: string;
	/** `--receipt-url` alone (no reply URL). */
	receiptUrl?: string;
	/** `--rate`; the CLI's default when left out. */
	rate?: string;
	/** Any other flags, as typed. */
	flags?: string[];
	/** More environment beside the sandbox's credentials. */
	env?: Record<string, string>;
	options?: CliOptions;
}

/** Runs the built CLI against `sandbox` with its credentials in the environment. */
export function runCampaign(sandbox: RunningSandbox, run: CampaignRun): Promise<CliResult> {
	return cli(campaignRunArgs(sandbox, run), { ...envFor(sandbox), ...run.env }, run.options);
}

/** The command line of `run` (`run.env` and `run.options` aside), for a CLI started in the background. */
export function campaignRunArgs(sandbox: RunningSandbox, run: CampaignRun): string[] {
	const receipts = run.callbacks !== undefined ? `${run.callbacks}/receipts` : run.receiptUrl;
	return [
		'campaign',
		'run',
		'--csv',
		run.csv,
		'--property',
		sandbox.demo.PropertySid,
		'--text',
		run.text,
		'--db',
		run.db,
		...(run.name !== undefined ? ['--name', run.name] : []),
		...(receipts !== undefined ? ['--receipt-url', receipts] : []),
		...(run.callbacks !== undefined ? ['--reply-url', `${run.callbacks}/replies`] : []),
		...(run.rate !== undefined ? ['--rate', run.rate] : []),
		...(run.flags ?? []),
	];
}

/** `cloudtel campaign status --json` of campaign `name` on `db`, parsed. */
export async function campaignStatus(db: string, name: string): Promise<any> {
	return JSON.parse(
		(await cli(['campaign', 'status', '--db', db, '--name', name, '--json'])).stdout,
	);
}

/** `cloudtel campaign status` of campaign `name` on `db`, as a person reads it. */
export async function campaignStatusText(db: string, name: string): Promise<string> {
	return (await cli(['campaign', 'status', '--db', db, '--name', name])).stdout;
}

/** The messages campaign `name` sent to `sandbox` (by their ExternalId), in the order taken. */
export async function sentBy(sandbox: RunningSandbox, name: string): Promise<SandboxMessage[]> {
	return (await sandboxMessages(sandbox)).filter((m) => m.ExternalId?.startsWith(`${name}:`));
}
