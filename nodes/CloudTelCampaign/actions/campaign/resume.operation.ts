import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { campaignNameField } from '../common/campaignName';
import { lifeStep } from '../common/lifeStep';

export const description = updateDisplayOptions({ show: { operation: ['resume'] } }, [campaignNameField] as INodeProperties[]);

/** Takes a paused campaign up where it stopped. */
export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	return await lifeStep(this, 'resume');
}
