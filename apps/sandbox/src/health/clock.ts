/**
 * The sandbox's notion of "now", shared by OAuth (code, access and refresh token lifetimes) and the
 * Health API data (no data after now). Tests move it forward instead of waiting: `advance(3_600_000)`
 * expires every access token issued before.
 */
export interface Clock {
  now(): number;
}

export class SandboxClock implements Clock {
  private offset = 0;

  /** Milliseconds added to the real time. */
  get offsetMs(): number {
    return this.offset;
  }

  set offsetMs(value: number) {
    if (!Number.isFinite(value)) throw new Error('clock offset must be a finite number');
    this.offset = Math.trunc(value);
  }

  now(): number {
    return Date.now() + this.offset;
  }

  advance(ms: number): void {
    this.offsetMs = this.offset + ms;
  }
}
