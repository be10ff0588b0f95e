/**
 * Runs a baseline and its contender `rounds` times each, alternating which goes first
 * (baseline, contender, contender, baseline, ...): this machine's speed drifts by a fifth
 * from one second to the next, so one pair of measurements can mislead.
 */
export async function alternate(rounds, baseline, contender) {
	const baselines = [];
	const contenders = [];
	for (let round = 0; round < rounds; round++) {
		if (round % 2 === 0) {
			baselines.push(await baseline());
			contenders.push(await contender());
		} else {
			contenders.push(await contender());
			baselines.push(await baseline());
		}
	}
	return { baselines, contenders };
}
