export type ReceiptStatus = 'Delivered' | 'Failed';

/** Sent to DeliveryReceiptWebhookUri: JSON for POST, query parameters for GET. */
export interface DeliveryReceiptCallback {
	MessageSid: string;
	AccountSid: string;
	PropertySid: string;
	From: string;
	To: string;
	Status: ReceiptStatus;
	ErrorCode: string;
	ExternalId: string;
	/** Unix seconds. */
	Timestamp: number;
}

/** Sent to WebhookUri when someone replies to a leased number. */
export interface ReplyCallback {
	/** The inbound message. */
	MessageSid: string;
	OriginalMessageSid: string;
	AccountSid: string;
	PropertySid: string;
	/** The replier. */
	From: string;
	/** The leased number. */
	To: string;
	Text: string;
	/** ExternalId of the original message. */
	ExternalId: string;
	Timestamp: number;
}
