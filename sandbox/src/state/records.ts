import type {
	Address,
	CreateSipTrunkRequest,
	Message,
	OnlineLogin,
	Property,
	WebhookMethod,
} from '../../../api';

export interface AccountRecord {
	AccountSid: string;
	AuthToken: string;
	SmsEnabled: boolean;
}

export type PropertyRecord = Property;

export interface LoginRecord extends OnlineLogin {
	/** Kept only to emulate the provider; never returned. */
	Password: string;
	AccountSid: string;
}

/** A message with everything the sandbox remembers about it, callback settings included. */
export interface MessageRecord extends Required<Omit<Message, 'ExternalId'>> {
	ExternalId: string;
	Schedule?: number;
	DeliveryReceiptWebhookUri?: string;
	DeliveryReceiptWebhookMethod: WebhookMethod;
	WebhookUri?: string;
	WebhookMethod: WebhookMethod;
	ForwardToSms?: string;
	ForwardFromSms?: string;
	ForwardToEmail?: string;
	ForwardFromEmail?: string;
	/** What the sender turned out to be once the +1 rule was applied. */
	SenderKind: 'e164' | 'alphanumeric' | 'leased';
	/** For inbound messages: the outbound message replied to. */
	OriginalMessageSid?: string;
	/**
	 * Unix milliseconds, real time, when the sandbox took it in (Created is the clock's
	 * seconds): a soak orders a send against a STOP's acknowledgement to the millisecond.
	 */
	AcceptedAt: number;
}

export interface LeaseRecord {
	/** The pool number lent to this recipient. */
	Number: string;
	Recipient: string;
	AccountSid: string;
	/** The message whose reply options apply. */
	MessageSid: string;
	Created: number;
	Expires: number;
}

export interface AddressRecord extends Address {
	Created: number;
}

export interface NumberRecord {
	Number: string;
	AccountSid: string;
	AddressSid: string;
}

export interface SipTrunkRecord extends CreateSipTrunkRequest {
	SipTrunkSid: string;
	AccountSid: string;
	PropertySid: string;
}
