import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';
import * as campaign from './actions/campaign/Campaign.resource';
import { router } from './actions/router';
import { cloudTelWorkerApiTest } from './methods';

/**
 * Campaigns run by a cloudtel worker: the workflow hands the list over once and the worker
 * sends it paced, honours its suppression list, survives restarts of n8n and of itself, and
 * reports back through the CloudTel Trigger's campaign events. No loop in the workflow.
 */
export class CloudTelCampaign implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'CloudTel Campaign',
		name: 'cloudTelCampaign',
		icon: { light: 'file:cloudtelCampaign.svg', dark: 'file:cloudtelCampaign.dark.svg' },
		group: ['output'],
		version: 1,
		// A literal, as n8n's scan requires; a test holds it to the operation names.
		subtitle:
			'={{ ({ cancel: "Cancel", deleteCampaign: "Delete", getReport: "Get Report", getStatus: "Get Status", pause: "Pause", preview: "Preview", resume: "Resume", start: "Start" })[$parameter["operation"]] || $parameter["operation"] }}',
		description:
			'Hand a list of recipients to a cloudtel worker as a paced SMS campaign, and follow it',
		documentationUrl: 'https://github.com/cloudtel/n8n-nodes-cloudtel#the-cloudtel-campaign-node',
		defaults: { name: 'CloudTel Campaign' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'cloudTelWorkerApi', required: true, testedBy: 'cloudTelWorkerApiTest' }],
		properties: campaign.description,
	};

	methods = { credentialTest: { cloudTelWorkerApiTest } };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
