/** What the sandbox did on the user's behalf, for GET /_sandbox/outbox. */

export type CallbackKind = 'DeliveryReceipt' | 'Reply';

export interface CallbackAttempt {
	Kind: CallbackKind;
	AccountSid: string;
	MessageSid: string;
	Url: string;
	Method: 'POST' | 'GET';
	Attempt: number;
	/** Unix milliseconds, real time. */
	At: number;
	/** The receiver's HTTP status, when it answered. */
	StatusCode?: number;
	/** Why no answer came (refused, timed out). */
	Error?: string;
	Delivered: boolean;
	Payload: Record<string, unknown>;
}

export interface ForwardedSms {
	AccountSid: string;
	PropertySid: string;
	From: string;
	To: string;
	Text: string;
	InboundMessageSid: string;
	OriginalMessageSid: string;
	At: number;
}

export interface ForwardedEmail {
	AccountSid: string;
	PropertySid: string;
	From: string;
	To: string;
	Subject: string;
	Text: string;
	InboundMessageSid: string;
	OriginalMessageSid: string;
	At: number;
}

export class Outbox {
	readonly callbacks: CallbackAttempt[] = [];
	readonly sms: ForwardedSms[] = [];
	readonly emails: ForwardedEmail[] = [];
}
