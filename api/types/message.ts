import type { WebhookMethod } from '../rules/webhook';

export type MessageStatus =
	| 'Scheduled'
	| 'Processing'
	| 'Sent'
	| 'Delivered'
	| 'Failed'
	| 'Received';
export type MessageDirection = 'Outbound' | 'Inbound';

export const MESSAGE_STATUSES: readonly MessageStatus[] = [
	'Scheduled',
	'Processing',
	'Sent',
	'Delivered',
	'Failed',
	'Received',
];

/** Reply handling, allowed only when From is blank (a leased sender). */
export interface LeaseOptions {
	ForwardToSms?: string;
	ForwardFromSms?: string;
	ForwardToEmail?: string;
	ForwardFromEmail?: string;
	WebhookUri?: string;
	WebhookMethod?: WebhookMethod;
}

export interface SendMessageRequest extends LeaseOptions {
	/** E.164, alphanumeric, or blank/omitted for a leased number. */
	From?: string;
	To: string;
	Text: string;
	/** UTC seconds; at most 14 days ahead, under an hour in the past sends now. */
	Schedule?: number;
	DeliveryReceipt?: boolean;
	DeliveryReceiptWebhookUri?: string;
	DeliveryReceiptWebhookMethod?: WebhookMethod;
	ExternalId?: string;
}

export interface Message {
	MessageSid: string;
	AccountSid: string;
	PropertySid: string;
	/** For a leased sender, the E.164 number actually used. */
	From: string;
	To: string;
	Text: string;
	DeliveryReceipt?: boolean;
	NumSegments?: number;
	Status?: MessageStatus;
	Direction?: MessageDirection;
	Created?: number;
	ErrorCode?: string;
	ExternalId?: string;
}

export interface SendMessageResponse {
	Message: Message;
}

export interface BatchMessagesRequest {
	Messages: SendMessageRequest[];
}

export interface BatchFieldError {
	FieldName: string;
	ErrorCode?: string;
	Message?: string;
}

export interface BatchErrorItem {
	ErrorCode: string;
	Message: string;
	Errors: BatchFieldError[];
}

/** One element per message, in request order. */
export type BatchResultItem = Message | BatchErrorItem;
export type BatchMessagesResponse = BatchResultItem[];

export const BATCH_MAX_MESSAGES = 1000;
