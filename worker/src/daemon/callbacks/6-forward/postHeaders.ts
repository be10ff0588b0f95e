import type { ReplyRule } from '../../../config/workerConfigSchema';

/**
 * A post action's static headers, from the config when the forward is sent: they are
 * often a receiver's credentials (Authorization: Bearer ...), and a copy in every queued
 * forward would put one in the database, and its WAL, per reply. The action is the one
 * its `<rule>.<action>` key names while that is still a post to the same URL; else the
 * first post to that URL (the rules were reordered). Undefined when the config has none.
 */
export function postHeaders(
	rules: readonly ReplyRule[],
	actionKey: string,
	url: string,
): Record<string, string> | undefined {
	const [rule, action] = actionKey.split('.').map(Number);
	const named = rules[rule]?.actions[action];
	if (named?.type === 'post' && named.url === url) return named.headers ?? {};
	for (const r of rules)
		for (const a of r.actions) if (a.type === 'post' && a.url === url) return a.headers ?? {};
	return undefined;
}
