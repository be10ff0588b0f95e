/**
 * The sandbox clock: real time plus an offset that POST /_sandbox/clock moves forward,
 * so scheduled sends and 30-day leases can be tested without waiting.
 */
export class Clock {
	private offsetMs = 0;

	nowMs(): number {
		return Date.now() + this.offsetMs;
	}

	/** Unix seconds, as every time field of the interface is. */
	now(): number {
		return Math.floor(this.nowMs() / 1000);
	}

	advance(seconds: number): void {
		this.offsetMs += seconds * 1000;
	}
}
