/** `GET /api/campaigns/{name}/preview`: the dry run of the campaign's recipients as they stand. */
export interface CampaignPreview {
	recipients: number;
	valid: number;
	invalid: number;
	duplicates: number;
	suppressed: number;
	/** At their frequency cap now (frequencyCap): a start would hold them back. */
	capped: number;
	/** Segments of every valid message. */
	segments: number;
	/** Messages that would be sent (the valid ones). */
	messages: number;
	/** With `?pricePerSegment=N`: segments x price. */
	cost?: number;
	/**
	 * The first problems, by line of the recipients as a CSV (the header is line 1), and, for
	 * pages whose values hold no line break, by `recipient`: its position across the pages, from 1.
	 */
	problems: { line: number; recipient?: number; field?: string; code?: string; message: string }[];
	/** With `maxCost`: the valid recipients, in order, sent before the cap pauses the campaign. */
	spendCap?: { maxCost: number; rowsWithin: number; costWithin: number };
	/** Recipients the number guardrails refused: by country (`countries`), and fixed lines (NOT_MOBILE). */
	refused?: { countries: { country: string; rows: number }[]; notMobile: number };
	/** What sends but may not arrive as meant: an alphanumeric `from` to Australia not listed in the worker's `senderIds.registered`. */
	warnings?: string[];
	/** The first three valid recipients' messages as they would go out (absent from workers before it). */
	samples?: CampaignSample[];
	/** A campaign with variants: each text's test and, if it wins, the rest; `text` first. */
	variants?: CampaignPreviewVariant[];
}

/** One text of a campaign with variants, as its preview counts it. */
export interface CampaignPreviewVariant {
	text: string;
	testRecipients: number;
	testSegments: number;
	/** The recipients outside the test, sent with this text if it wins. */
	restRecipients: number;
	restSegments: number;
	/** With `?pricePerSegment=N`. */
	testCost?: number;
	restCost?: number;
	/** Recipients whose message goes as UCS-2 (70 characters a segment) with this text, and the characters that make it so. */
	ucs2Recipients: number;
	ucs2Characters: string;
	/** The first valid recipient's message with this text. */
	sample?: { to: string; text: string; segments: number };
}

/** One recipient's message as the worker renders it: its number in E.164, its text, its segments. */
export interface CampaignSample {
	line: number;
	recipient?: number;
	to: string;
	text: string;
	segments: number;
}
