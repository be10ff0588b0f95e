export type AddressStatus = 'Approved' | 'Pending' | 'Rejected';

export interface AddAddressRequest {
	Friendly?: string;
	Reference?: string;
	Line1: string;
	Line2?: string;
	City: string;
	Region?: string;
	CountryCode: string;
	PostalCode?: string;
}

export interface Address extends AddAddressRequest {
	AddressSid: string;
	AccountSid: string;
	Status: AddressStatus;
}

export interface AddAddressResponse {
	Address: Address;
}

export interface DeleteAddressResponse {
	AddressSid: string;
}
