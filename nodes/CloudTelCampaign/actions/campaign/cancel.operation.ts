import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { lifeStep } from '../common/lifeStep';

/** Stops the campaign for good: recipients not sent yet are counted cancelled. */
export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	return await lifeStep(this, 'cancel');
}
