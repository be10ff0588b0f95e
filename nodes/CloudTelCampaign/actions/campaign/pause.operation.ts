import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { lifeStep } from '../common/lifeStep';

/** Holds the sending; what is in flight settles, the rest waits for Resume. */
export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	return await lifeStep(this, 'pause');
}
