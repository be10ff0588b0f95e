import type { SigningConfig } from '../../../config/signingConfig';
import type { ReplyRule } from '../../../config/workerConfigSchema';

/**
 * A post action's signing secret, from the config when the forward is sent (as its headers,
 * postHeaders, and for the same reason: a secret kept out of the database). The action
 * `<rule>.<action>` names while it still posts to the same URL, else the first post there.
 */
export function postSigning(
	rules: readonly ReplyRule[],
	actionKey: string,
	url: string,
): SigningConfig | undefined {
	const [rule, action] = actionKey.split('.').map(Number);
	const named = rules[rule]?.actions[action];
	if (named?.type === 'post' && named.url === url) return named.signing;
	for (const r of rules)
		for (const a of r.actions) if (a.type === 'post' && a.url === url) return a.signing;
	return undefined;
}
