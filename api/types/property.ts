export interface UpdatePropertyRequest {
	Name?: string;
	MainDomain?: string;
	/** A Windows time zone ID. */
	TimeZone?: string;
	SmsEnabled?: boolean;
	CallRecordingEnabled?: boolean;
	IntegrationsEnabled?: boolean;
	Active?: boolean;
}

/** The whole property record; the interface shows only the updatable fields. */
export interface Property extends Required<Omit<UpdatePropertyRequest, 'MainDomain'>> {
	PropertySid: string;
	AccountSid: string;
	MainDomain: string;
}
