import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import {
	MAX_COLUMN_NAME_LENGTH,
	MAX_RECIPIENT_COLUMNS,
	MAX_VALUE_LENGTH,
	type Recipient,
} from '../../../../api';
import { parameterReader } from '../../../CloudTel/actions/common/parameterReader';
import { asNodeError } from '../../../CloudTel/actions/common/nodeError';
import { campaignFailure } from './campaignFailure';

export interface ReadRecipients {
	recipients: Recipient[];
	/** The items left out (Continue On Fail), each an error item paired to its input. */
	failed: INodeExecutionData[];
}

function describe(value: unknown): string {
	if (Array.isArray(value)) return 'a list';
	if (value instanceof Date) return 'a date object';
	if (typeof value === 'object') return 'an object';
	return typeof value === 'number' ? String(value) : typeof value;
}

/** Why a recipient cannot be handed over, naming the field; undefined when it can. */
function problemOf(recipient: IDataObject): string | undefined {
	let columns = 0;
	for (const key in recipient) {
		const value = recipient[key];
		if (value === undefined) continue;
		columns++;
		if (key.trim() === '' || key.length > MAX_COLUMN_NAME_LENGTH)
			return `a field name is blank or longer than ${MAX_COLUMN_NAME_LENGTH} characters ("${key.slice(0, 40)}")`;
		if (typeof value === 'string') {
			if (value.length > MAX_VALUE_LENGTH)
				return `field "${key}" is longer than ${MAX_VALUE_LENGTH.toLocaleString('en-US')} characters`;
		} else if (
			value !== null &&
			typeof value !== 'boolean' &&
			!(typeof value === 'number' && Number.isFinite(value))
		) {
			return `field "${key}" holds ${describe(value)}; a recipient's fields must be text, numbers, true/false or empty`;
		}
	}
	if (columns === 0) return 'it has no fields';
	if (columns > MAX_RECIPIENT_COLUMNS)
		return `it has ${columns} fields; at most ${MAX_RECIPIENT_COLUMNS}`;
	return undefined;
}

/**
 * The input items as recipients, in input order. Map From Input hands each item's json over
 * as it is (no copy: a list of 100,000 is not duplicated in n8n's memory); Define Below builds
 * each recipient from the Columns, reading plain `{{ $json.x }}` values straight from the item.
 * A bad item fails the node naming it and its field before anything is handed over, or with
 * Continue On Fail is left out and comes out as an error item.
 */
export function readRecipients(ctx: IExecuteFunctions): ReadRecipients {
	const input = ctx.getInputData();
	const node = ctx.getNode();
	const autoMap = ctx.getNodeParameter('mapping', 0, 'autoMap') === 'autoMap';
	const columnsOf = parameterReader<IDataObject>(ctx, 'columns', {});
	const recipients: Recipient[] = [];
	const failed: INodeExecutionData[] = [];
	for (let i = 0; i < input.length; i++) {
		let recipient: IDataObject;
		if (autoMap) recipient = input[i].json;
		else {
			recipient = {};
			for (const column of (columnsOf(i).column ?? []) as IDataObject[]) {
				const name = String(column.name ?? '').trim();
				if (name !== '') recipient[name] = column.value;
			}
		}
		const problem = problemOf(recipient);
		if (problem === undefined) {
			recipients.push(recipient as Recipient);
			continue;
		}
		const error = new NodeOperationError(node, `Item ${i} cannot be a recipient: ${problem}`, {
			itemIndex: i,
			description: autoMap
				? 'With Recipient Fields: Map From Input, every field of the item is handed over; choose Define Below to pick and shape the fields.'
				: undefined,
		});
		if (!ctx.continueOnFail()) throw error;
		failed.push(campaignFailure(ctx, asNodeError(node, error, i), i));
	}
	return { recipients, failed };
}
