// The harness itself: n8n runs a Manual Trigger + Code workflow and its output is read back.
import assert from 'node:assert/strict';
import { code, linear, outputOf } from '../lib/workflows.mjs';

export const title = "n8n itself: Manual Trigger + Code in the line's running n8n";

export async function run({ n8n }, test) {
	await test('a Code node makes 3 items and n8n reports them', async () => {
		const wf = linear('smoke', code('Make', 'return [1, 2, 3].map((i) => ({ json: { i } }));'));
		await n8n.importWorkflow(wf);
		const execution = await n8n.execute(wf.id);
		assert.equal(execution.status, 'success');
		assert.deepEqual(
			outputOf(execution, 'Make').map((item) => item.json.i),
			[1, 2, 3],
		);
	});
}
