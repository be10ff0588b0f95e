import type {
	AccountRecord,
	AddressRecord,
	LoginRecord,
	MessageRecord,
	NumberRecord,
	PropertyRecord,
	SipTrunkRecord,
} from './records';

/** Everything the sandbox knows, in memory. Handlers run to completion, so no locks. */
export class Store {
	readonly accounts = new Map<string, AccountRecord>();
	readonly properties = new Map<string, PropertyRecord>();
	/** Insertion order is creation order, which the login list is sorted by. */
	readonly logins = new Map<string, LoginRecord>();
	readonly messages = new Map<string, MessageRecord>();
	readonly addresses = new Map<string, AddressRecord>();
	readonly numbers = new Map<string, NumberRecord>();
	readonly trunks = new Map<string, SipTrunkRecord>();

	/** The property when it exists and belongs to the account; anything else reads as 404. */
	ownProperty(accountSid: string, propertySid: string): PropertyRecord | undefined {
		const p = this.properties.get(propertySid);
		return p && p.AccountSid === accountSid ? p : undefined;
	}

	ownLogin(accountSid: string, sid: string): LoginRecord | undefined {
		const l = this.logins.get(sid);
		return l && l.AccountSid === accountSid ? l : undefined;
	}

	ownAddress(accountSid: string, sid: string): AddressRecord | undefined {
		const a = this.addresses.get(sid);
		return a && a.AccountSid === accountSid ? a : undefined;
	}

	loginsOf(accountSid: string): LoginRecord[] {
		return [...this.logins.values()].filter((l) => l.AccountSid === accountSid);
	}

	emailTaken(accountSid: string, email: string, exceptSid?: string): boolean {
		const wanted = email.toLowerCase();
		return this.loginsOf(accountSid).some(
			(l) => l.OnlineLoginSid !== exceptSid && l.Email.toLowerCase() === wanted,
		);
	}

	addressInUse(addressSid: string): boolean {
		for (const n of this.numbers.values()) if (n.AddressSid === addressSid) return true;
		return false;
	}
}
