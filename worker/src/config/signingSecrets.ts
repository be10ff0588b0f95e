import type { SigningConfig } from './signingConfig';
import type { WorkerConfig } from './workerConfigSchema';

/** Every `whsec_` secret the config holds (worker-wide and each destination's), to keep out of logs. */
export function signingSecrets(config: WorkerConfig): string[] {
	const all: (SigningConfig | undefined)[] = [
		config.signing,
		config.forward.n8n?.signing,
		config.events?.signing,
		...config.campaigns.map((c) => c.signing),
		...config.replies.flatMap((r) =>
			r.actions.map((a) => (a.type === 'post' ? a.signing : undefined)),
		),
	];
	return all.flatMap((s) => (s ? [s.secret, s.previousSecret ?? ''] : []));
}
