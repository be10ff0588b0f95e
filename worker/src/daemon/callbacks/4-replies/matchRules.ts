import { compileReplyPattern } from '../../../config/replyPattern';
import type { ReplyAction, ReplyRule } from '../../../config/workerConfigSchema';
import type { ReplyContext } from '../6-forward/forwardPayload';
import { replyWords } from '../../../config/replyWords';

export interface MatchedAction {
	/** `<rule>.<action>`: stable for the same config, so a re-processed reply queues nothing twice. */
	key: string;
	rule: number;
	action: ReplyAction;
}

/** The first word, as people answer "YES please" to a question asking for YES. */
function firstWord(text: string): string {
	return replyWords(text)[0] ?? '';
}

export function ruleMatches(rule: ReplyRule, context: ReplyContext): boolean {
	const m = rule.match;
	const text = context.reply.Text;
	if (m.keyword && !m.keyword.some((k) => k.toUpperCase() === firstWord(text))) return false;
	if (m.regex && !compileReplyPattern(m.regex)!.test(text)) return false;
	if (m.campaign && !m.campaign.some((c) => c === context.campaign || c === context.run))
		return false;
	if (m.sender && !m.sender.includes(context.reply.From)) return false;
	return true;
}

/**
 * Rules in order; every condition a rule gives must hold. The first rule that matches
 * decides, unless it says `continue`, when later ones are looked at too.
 */
export function matchRules(rules: readonly ReplyRule[], context: ReplyContext): MatchedAction[] {
	const out: MatchedAction[] = [];
	for (let i = 0; i < rules.length; i++) {
		const rule = rules[i];
		if (!ruleMatches(rule, context)) continue;
		rule.actions.forEach((action, j) => out.push({ key: `${i}.${j}`, rule: i, action }));
		if (!rule.continue) break;
	}
	return out;
}
