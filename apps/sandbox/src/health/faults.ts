import { ApiError } from './errors.js';

/**
 * Injected 500/503 answers at a rate, without randomness: each rate accumulates per request and
 * fires when the total passes 1, so 0.5 fails every second request and 1 fails every one.
 */
export class Faults {
  private acc500 = 0;
  private acc503 = 0;

  reset(): void {
    this.acc500 = 0;
    this.acc503 = 0;
  }

  check(rates: { error500Rate: number; error503Rate: number }): void {
    this.acc500 += rates.error500Rate;
    if (this.acc500 >= 1 - 1e-9) {
      this.acc500 -= 1;
      throw new ApiError(500, 'INTERNAL', 'Internal error encountered.');
    }
    this.acc503 += rates.error503Rate;
    if (this.acc503 >= 1 - 1e-9) {
      this.acc503 -= 1;
      throw new ApiError(503, 'UNAVAILABLE', 'The service is currently unavailable.');
    }
  }
}
