import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * State the sandbox keeps in its data directory (when it has one) so a restart keeps working
 * with what the API server stored: keys, subscribers, sync horizons. Written whole and renamed into
 * place, readable only by the owner because some of it is secret.
 */
export function readJsonFile<T>(dataDir: string | undefined, name: string): T | undefined {
  if (!dataDir) return undefined;
  try {
    return JSON.parse(readFileSync(join(dataDir, name), 'utf8')) as T;
  } catch {
    return undefined;
  }
}

export function writeJsonFile(dataDir: string | undefined, name: string, value: unknown): void {
  if (!dataDir) return;
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, name);
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, JSON.stringify(value), { mode: 0o600 });
  renameSync(tmp, file);
}
