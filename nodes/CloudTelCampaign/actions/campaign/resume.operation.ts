import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { lifeStep } from '../common/lifeStep';

/** Takes a paused campaign up where it stopped. */
export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	return await lifeStep(this, 'resume');
}
