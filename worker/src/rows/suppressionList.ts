import { forgottenKey, isForgottenKey } from '../storage/contact';
import { NumberSet } from './numberSet';

/**
 * The suppression list as an import checks it: numbers, and the hashes `contact forget`
 * leaves of forgotten ones. Only a list with such a hash pays for hashing each row.
 */
export class SuppressionList {
	private readonly numbers = new NumberSet();
	private readonly hashes = new Set<string>();

	static async load(source: AsyncIterable<string> | undefined): Promise<SuppressionList> {
		const list = new SuppressionList();
		if (source) for await (const entry of source) list.add(entry);
		return list;
	}

	add(entry: string): void {
		if (isForgottenKey(entry)) this.hashes.add(entry);
		else this.numbers.add(entry);
	}

	has(e164: string): boolean {
		return this.numbers.has(e164) || (this.hashes.size > 0 && this.hashes.has(forgottenKey(e164)));
	}
}
