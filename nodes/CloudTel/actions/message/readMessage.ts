import type { ICredentialDataDecryptedObject, IDataObject, IExecuteFunctions } from 'n8n-workflow';
import {
	ErrorCodes,
	isDialCountry,
	nationalToE164,
	SEND_MESSAGE_FIELDS,
	systemContext,
	toColumnIndex,
	validateSendMessage,
	violation,
	type SendMessageRequest,
	type Violation,
} from '../../../../api';
import { assertValid } from '../common/assertValid';
import { compact } from '../common/compact';
import { parameterReader } from '../common/parameterReader';
import { propertySidOr, validatePropertySid } from '../common/propertySid';
import { toUnixSeconds } from '../common/unixSeconds';

const CANONICAL = new Map(SEND_MESSAGE_FIELDS.map((name) => [name.toLowerCase(), name]));

/**
 * "Map From Input": the item's own fields named as the interface names them, any case; the
 * number, without a To field, from Phone or Mobile, by the rule a campaign picks its column.
 */
function fieldsFromItem(json: IDataObject): IDataObject {
	const out: IDataObject = {};
	for (const [key, value] of Object.entries(json)) {
		const name = CANONICAL.get(key.toLowerCase());
		if (name !== undefined) out[name] = value;
	}
	if (out.To === undefined) {
		const keys = Object.keys(json);
		const number = toColumnIndex(keys);
		if (number >= 0) out.To = json[keys[number]];
	}
	return out;
}

/** Said instead of "To is required" when an item has no number field at all: what it has, and what to do. */
function noNumberField(json: IDataObject): Violation {
	const keys = Object.keys(json);
	const shown =
		keys.length === 0 ? 'none' : keys.slice(0, 12).join(', ') + (keys.length > 12 ? ', ...' : '');
	return violation(
		'To',
		ErrorCodes.FieldRequired,
		`The item has no number: no field named To, Phone or Mobile (any case). Its fields: ${shown}. Rename the number's field (an Edit Fields node before this one) or choose Message Fields: Define Below.`,
	);
}

export interface PreparedMessage {
	propertySid: string;
	body: SendMessageRequest;
}

/**
 * Reads each item's message, validated by api/ before anything is sent. Blank fields are
 * left out (a blank From means a leased number), so expressions that map empty columns
 * work. Options and Reply Handling are defaults that an item's own fields override.
 */
export function messageReader(
	ctx: IExecuteFunctions,
	credentials: ICredentialDataDecryptedObject,
): (itemIndex: number) => PreparedMessage {
	const ownPropertySidOf = parameterReader(ctx, 'propertySid', '');
	const orDefault = propertySidOr(credentials);
	const optionsOf = parameterReader<IDataObject>(ctx, 'options', {});
	// Shown only while From is blank; if From comes from an expression and is not blank,
	// api/ refuses these fields by name rather than the node dropping them unseen.
	const replyOf = parameterReader<IDataObject>(ctx, 'replyHandling', {});
	const autoMap = ctx.getNodeParameter('mapping', 0, 'defineBelow') === 'autoMap';
	const fromOf = parameterReader<unknown>(ctx, 'from', '');
	const toOf = parameterReader<unknown>(ctx, 'to', '');
	const textOf = parameterReader<unknown>(ctx, 'text', '');
	const input = ctx.getInputData();
	const timeZone = ctx.getTimezone();
	// n8n deep-copies the node on every getNode(): once per run, not once per item.
	const node = ctx.getNode();
	return (itemIndex) => {
		const propertySid = orDefault(ownPropertySidOf(itemIndex));
		const { Schedule, defaultCountry, ...options } = optionsOf(itemIndex);
		const fields: IDataObject = autoMap
			? fieldsFromItem(input[itemIndex].json)
			: {
					From: fromOf(itemIndex) as IDataObject[string],
					To: toOf(itemIndex) as IDataObject[string],
					Text: textOf(itemIndex) as IDataObject[string],
				};
		const { Schedule: itemSchedule, ...own } = fields;
		const body = compact<SendMessageRequest>({ ...options, ...replyOf(itemIndex), ...own });
		const schedule = itemSchedule ?? Schedule;
		const violations = validatePropertySid(propertySid);
		const country = typeof defaultCountry === 'string' ? defaultCountry.trim().toUpperCase() : '';
		if (country !== '' && !isDialCountry(country))
			violations.push(
				violation(
					'DefaultCountry',
					ErrorCodes.InvalidCountryCode,
					`Default Country must be a two-letter country code such as AU or GB (got "${String(defaultCountry)}").`,
				),
			);
		else if (country !== '' && typeof body.To === 'string')
			body.To = nationalToE164(body.To, country);
		if (schedule !== undefined && schedule !== '' && schedule !== null) {
			const seconds = toUnixSeconds(schedule, timeZone);
			if (seconds === undefined)
				violations.push(
					violation(
						'Schedule',
						ErrorCodes.InvalidType,
						`Schedule must be a date and time (got "${String(schedule)}").`,
					),
				);
			else body.Schedule = seconds;
		}
		if (autoMap && own.To === undefined) violations.push(noNumberField(input[itemIndex].json));
		violations.push(
			...validateSendMessage(body, systemContext()).filter(
				(v) => !(autoMap && own.To === undefined && v.FieldName === 'To'),
			),
		);
		// The copy is made only for a bad item: a batch reads thousands of good ones.
		if (violations.length > 0)
			assertValid(node, violations, itemIndex, {
				...body,
				PropertySid: propertySid,
				Schedule: body.Schedule ?? schedule,
			});
		return { propertySid, body };
	};
}
