import type { WorkerConfig } from '../../config/workerConfigSchema';
import { resolveTimeZone } from '../../schedule/timeZone';

/** The worker's `limits` as a run's daily spend cap: every campaign of its ledger shares it. */
export function dailyCap(config: WorkerConfig): { dailyMaxCost?: number; dailyTimeZone?: string } {
	const limits = config.limits;
	if (limits?.dailyMaxCost === undefined) return {};
	return {
		dailyMaxCost: limits.dailyMaxCost,
		dailyTimeZone: limits.timeZone === undefined ? undefined : resolveTimeZone(limits.timeZone),
	};
}
