import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { campaignNameField } from '../common/campaignName';
import { lifeStep } from '../common/lifeStep';

export const description = updateDisplayOptions({ show: { operation: ['pause'] } }, [campaignNameField] as INodeProperties[]);

/** Holds the sending; what is in flight settles, the rest waits for Resume. */
export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	return await lifeStep(this, 'pause');
}
