import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import * as address from './address/Address.resource';
import * as message from './message/Message.resource';
import * as onlineLogin from './onlineLogin/OnlineLogin.resource';
import * as property from './property/Property.resource';
import * as sipTrunk from './sipTrunk/SipTrunk.resource';

type Operation = { execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> };

const operations: Record<string, Record<string, Operation>> = {
	onlineLogin: {
		create: onlineLogin.create,
		get: onlineLogin.get,
		getMany: onlineLogin.getMany,
		update: onlineLogin.update,
	},
	property: { update: property.update },
	message: { send: message.send, sendBatch: message.sendBatch },
	sipTrunk: { create: sipTrunk.create },
	address: { add: address.add, delete: address.deleteAddress },
};

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const selected = operations[resource]?.[operation];
	if (!selected)
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operation}" of "${resource}" is not supported`,
		);
	return [await selected.execute.call(this)];
}
