import type { ReplyContext } from './forwardPayload';

/** When the provider timed the reply, else when the worker stored it. */
export function replyTime(context: ReplyContext): Date {
	return new Date(
		context.reply.Timestamp > 0 ? context.reply.Timestamp * 1000 : context.receivedAt,
	);
}

/** "weekly (row 12)", or nothing when the original message was not from a campaign. */
export function campaignLabel(context: ReplyContext): string | undefined {
	if (!context.campaign) return undefined;
	return context.row !== undefined ? `${context.campaign} (row ${context.row})` : context.campaign;
}
