import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { campaignNameField } from '../common/campaignName';
import { lifeStep } from '../common/lifeStep';

export const description = updateDisplayOptions({ show: { operation: ['cancel'] } }, [campaignNameField] as INodeProperties[]);

/** Stops the campaign for good: recipients not sent yet are counted cancelled. */
export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	return await lifeStep(this, 'cancel');
}
