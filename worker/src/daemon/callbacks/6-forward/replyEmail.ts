import type { ReplyContext } from './forwardPayload';
import { campaignLabel, replyTime } from './replyDescription';

export interface ReplyEmail {
	subject: string;
	text: string;
}

/** The e-mail a reply becomes: its text first, then who sent it, to which campaign, when. */
export function replyEmail(context: ReplyContext, subject?: string): ReplyEmail {
	const { reply } = context;
	const campaign = campaignLabel(context);
	const lines = [
		reply.Text,
		'',
		'--',
		`From: ${reply.From}`,
		`Campaign: ${campaign ?? '(none)'}`,
		`Time: ${replyTime(context).toISOString()}`,
		`To (leased number): ${reply.To}`,
		`MessageSid: ${reply.MessageSid}`,
	];
	if (context.run) lines.push(`Run: ${context.run}`);
	return {
		subject:
			subject ?? `SMS reply from ${reply.From}${context.campaign ? ` to ${context.campaign}` : ''}`,
		text: lines.join('\n') + '\n',
	};
}
