import { chmod, mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Everything the server keeps on disk (keys, OAuth tokens in the database, participants'
 * documents, extracted health data) is for its own account only: folders 0700, files 0600.
 * Modes passed at creation are reduced by the umask but never widened, so these hold under any
 * umask; folders that already exist are set explicitly. (Setting the process umask would not
 * do: PGlite sets its files' modes itself.)
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Creates `dir` and its missing parents owner-only, and makes `dir` so if it already exists. */
export async function ensurePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  await chmod(dir, PRIVATE_DIR_MODE);
}

/**
 * Makes every folder and file under `dir` owner-only: for trees written by a library, or by an
 * older version of the server, before this rule.
 */
export async function makeTreePrivate(dir: string): Promise<void> {
  await chmod(dir, PRIVATE_DIR_MODE);
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) await makeTreePrivate(path);
    else if (entry.isFile()) await chmod(path, PRIVATE_FILE_MODE);
  }
}
