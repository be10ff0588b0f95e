import type { ReplyContext } from './forwardPayload';
import { campaignLabel, replyTime } from './replyDescription';

export interface ReplyEmail {
	subject: string;
	text: string;
}

/** The e-mail a reply becomes: its text first, then who sent it, to which campaign, when. */
export function replyEmail(context: ReplyContext, subject?: string): ReplyEmail {
	const { reply, name, optedOut } = context;
	const campaign = campaignLabel(context);
	const who = name ? `${name} (${reply.From})` : reply.From;
	const lines = [
		reply.Text,
		'',
		'--',
		`From: ${who}`,
		...(optedOut
			? [
					`Opted out: this reply (${optedOut.keyword ?? `reply rule ${optedOut.rule}`}) put ${reply.From} on the suppression list; no campaign texts them again unless they reply START`,
				]
			: []),
		`Campaign: ${campaign ?? '(none)'}`,
		`Time: ${replyTime(context).toISOString()}`,
		`To (leased number): ${reply.To}`,
		`MessageSid: ${reply.MessageSid}`,
	];
	if (context.run) lines.push(`Run: ${context.run}`);
	return {
		subject:
			subject ??
			`SMS reply from ${who}${context.campaign ? ` to ${context.campaign}` : ''}${optedOut ? ': opted out' : ''}`,
		text: lines.join('\n') + '\n',
	};
}
