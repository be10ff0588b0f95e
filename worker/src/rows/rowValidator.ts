import {
	countSegments,
	nonGsm7Characters,
	smartEncode,
	validateSendMessage,
	type SendMessageRequest,
} from '../../../api';
import { externalId } from './externalId';
import { rewriteLinks } from './linkRewrite';
import { resolveTimeZone } from '../schedule/timeZone';
import { PhoneNormalizer } from './phoneNormalizer';
import { numberGuard } from './numberGuard';
import { RowErrors } from './rowErrors';
import type { RowInput, RowRules, RowVerdict } from './rowRules';
import { compileTemplate, renderTemplate, type CompiledTemplate } from './template';

/** Judges one CSV row: number, text, time zone, then api/'s rules for a message. */
export class RowValidator {
	private readonly template: CompiledTemplate;
	private readonly phones: PhoneNormalizer;
	private readonly guard: ReturnType<typeof numberGuard>;

	constructor(private readonly rules: RowRules) {
		this.template = compileTemplate(rules.text, rules.header);
		this.phones = new PhoneNormalizer(rules.defaultCountry);
		this.guard = numberGuard(rules);
	}

	validate(row: RowInput, now: number): RowVerdict {
		const { line, fields } = row;
		const rules = this.rules;
		if (fields.length !== rules.header.length) {
			return {
				line,
				ok: false,
				code: RowErrors.FieldCount,
				reason: `the row has ${fields.length} fields, the header has ${rules.header.length}`,
			};
		}
		const phone = this.phones.normalize(fields[rules.toIndex]);
		if ('error' in phone) {
			return {
				line,
				ok: false,
				code: RowErrors.InvalidNumber,
				reason: `${rules.header[rules.toIndex]}: ${phone.error}`,
			};
		}
		const to = phone.e164;
		const refused = this.guard(to, phone.country);
		if (refused) return { line, ok: false, to, ...refused };
		const rendered = renderTemplate(this.template, fields);
		if ('emptyColumns' in rendered) {
			const cols = rendered.emptyColumns;
			return {
				line,
				ok: false,
				to,
				code: RowErrors.EmptyValue,
				reason: `${cols.length > 1 ? 'columns' : 'column'} ${cols.join(', ')} ${cols.length > 1 ? 'are' : 'is'} empty, and the text needs ${cols.length > 1 ? 'them' : 'it'}`,
			};
		}
		let timeZone: string | undefined;
		if (rules.timeZoneIndex !== undefined) {
			const cell = fields[rules.timeZoneIndex].trim();
			timeZone = cell === '' ? rules.defaultTimeZone : resolveTimeZone(cell);
			if (!timeZone) {
				const why =
					cell === ''
						? 'is empty and no --time-zone was given'
						: `"${cell}" is neither a Windows nor an IANA time zone`;
				return {
					line,
					ok: false,
					to,
					code: RowErrors.InvalidTimeZone,
					reason: `${rules.header[rules.timeZoneIndex]} ${why}`,
				};
			}
		}
		const tracked =
			rules.linkBase !== undefined ? rewriteLinks(rendered.text, rules.linkBase) : undefined;
		if (tracked) rendered.text = tracked.text;
		const text = rules.smartEncoding ? smartEncode(rendered.text) : rendered.text;
		const message: SendMessageRequest = {
			To: to,
			Text: text,
			ExternalId: externalId(rules.campaign, line),
		};
		if (rules.from !== undefined) message.From = rules.from;
		const violations = validateSendMessage(message, { now });
		if (violations.length > 0) {
			return {
				line,
				ok: false,
				to,
				code: violations[0].ErrorCode,
				reason: violations.map((v) => v.Message).join(' '),
			};
		}
		const count = countSegments(text);
		const segments = count.segments;
		const verdict: RowVerdict = rules.wantText
			? { line, ok: true, to, text, segments, timeZone }
			: { line, ok: true, to, segments, timeZone };
		// What the preview tells: why a message is UCS-2, and what smart encoding changes. A
		// GSM-7 text has nothing smart encoding would replace.
		if (count.encoding === 'UCS-2') verdict.ucs2 = nonGsm7Characters(text).join('');
		const other = rules.smartEncoding
			? text === rendered.text
				? segments
				: countSegments(rendered.text).segments
			: count.encoding === 'UCS-2'
				? countSegments(smartEncode(text)).segments
				: segments;
		if (other !== segments) verdict.otherSegments = other;
		if (tracked && tracked.links.length > 0) verdict.links = tracked.links;
		return verdict;
	}
}
