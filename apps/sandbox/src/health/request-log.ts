/**
 * The Health API requests the sandbox received, so a test can count what a client asked Google
 * (e.g. "no new call"). Only the method, the path without its query (a token may ride in
 * `access_token`) and the account the bearer token belongs to; never a header or a body.
 */
export interface HealthRequest {
  /** Sandbox clock, epoch milliseconds. */
  at: number;
  method: string;
  /** `/v4/users/me/…`, without the query string. */
  path: string;
  /** The account behind the token; null when the token was unknown. */
  email: string | null;
}

/** Oldest entries go first past this many: a long benchmark must not grow the sandbox forever. */
const LIMIT = 100_000;

export class RequestLog {
  private entries: HealthRequest[] = [];

  add(entry: HealthRequest): void {
    this.entries.push(entry);
    if (this.entries.length > LIMIT) this.entries.splice(0, this.entries.length - LIMIT);
  }

  /** Oldest first; only the account's when `email` is given. */
  list(email?: string): HealthRequest[] {
    const wanted = email?.trim().toLowerCase();
    return this.entries.filter((e) => wanted === undefined || e.email === wanted);
  }

  clear(): void {
    this.entries = [];
  }
}
