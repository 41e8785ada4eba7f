import { readJsonFile, writeJsonFile } from './json-file.js';

const HORIZONS_FILE = 'health-sync.json';

/**
 * How far each simulated tracker has synced. Until an account's device is told to sync, its data
 * is visible up to the sandbox's now, as if it synced continuously; after a sync it is visible up
 * to the synced instant only, until the next sync (or until it is made live again).
 */
export class SyncHorizons {
  private readonly horizons = new Map<string, number>();

  constructor(private readonly dataDir: string | undefined) {
    const stored = readJsonFile<Record<string, number>>(dataDir, HORIZONS_FILE);
    for (const [email, at] of Object.entries(stored ?? {})) {
      if (typeof at === 'number' && Number.isFinite(at)) this.horizons.set(email, at);
    }
  }

  private save(): void {
    writeJsonFile(this.dataDir, HORIZONS_FILE, Object.fromEntries(this.horizons));
  }

  /** The instant of the last sync, or null while the device syncs continuously. */
  syncedAt(email: string): number | null {
    return this.horizons.get(email.trim().toLowerCase()) ?? null;
  }

  /** Data is visible up to this instant (never after now). */
  visibleUntil(email: string, now: number): number {
    const at = this.syncedAt(email);
    return at === null ? now : Math.min(at, now);
  }

  /** Sets the horizon (null: continuous again); returns the one in force before. */
  set(email: string, at: number | null, now: number): number {
    const key = email.trim().toLowerCase();
    const previous = this.visibleUntil(key, now);
    if (at === null) this.horizons.delete(key);
    else this.horizons.set(key, at);
    this.save();
    return previous;
  }
}
