import { randomBytes } from 'node:crypto';
import {
  createWriteStream,
  type Dirent,
  existsSync,
  mkdirSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { mkdir, open, readdir, readFile, rmdir, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { storageApi } from '@research/contracts';
import { AppError } from '../../errors.js';
import { hmacSign, hmacVerify } from '../crypto.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../private-files.js';
import {
  assertValidBucket,
  assertValidExpiry,
  assertValidKey,
  BucketNotFoundError,
  DEFAULT_CONTENT_TYPE,
  normalizeLimit,
  ObjectNotFoundError,
  type ObjectPage,
  type ObjectStore,
  type StoredObject,
} from './types.js';

export interface FsObjectStoreOptions {
  /** Directory holding one folder per bucket, e.g. `./data/storage`. */
  root: string;
  /** Public origin of the API, e.g. `https://research.example.org`; signed URLs point there. */
  publicUrl: string;
  /** Secret for download signatures (at least 32 bytes). */
  signingKey: Buffer;
}

export interface SignedDownload {
  bucket: string;
  key: string;
  /** Unix seconds, as found in the URL. */
  expires: string | number | undefined;
  signature: string | undefined;
  filename?: string | undefined;
  /** The account the link was issued to, if any. */
  user?: string | undefined;
}

export interface FsObjectStore extends ObjectStore {
  readonly driver: 'fs';
  /** Where the object's bytes lie on disk (for readers that open files, e.g. DuckDB). */
  localPath(bucket: string, key: string): string;
  /** True when the signature matches and the link has not expired. */
  verifySignature(download: SignedDownload, now?: Date): boolean;
}

/** Path of the download route that serves signed links (storageApi.downloadObject), before `/:bucket/*`. */
const DOWNLOAD_ROUTE_PREFIX = storageApi.downloadObject.path.replace(/\/:bucket\/\*$/, '');

// Next to the bucket folders; a bucket name can never start with '.', so these never collide.
const META_DIR = '.meta';
const TMP_DIR = '.tmp';

/**
 * The content type an object without a metadata file has: the one its name's extension implies
 * for the files the product writes most, otherwise the default.
 */
const IMPLIED_TYPES: Record<string, string> = {
  json: 'application/json',
  parquet: 'application/vnd.apache.parquet',
};
function typeOfKey(key: string): string {
  const extension = /\.([a-z0-9]+)$/.exec(key)?.[1];
  return (extension && IMPLIED_TYPES[extension]) || DEFAULT_CONTENT_TYPE;
}

/** Encodes each segment but keeps '/' so the link reads like the key. */
export function encodeKey(key: string): string {
  return key.split('/').map(encodeURIComponent).join('/');
}

function canonicalDownload(
  bucket: string,
  key: string,
  expires: number,
  filename: string | undefined,
  user: string | undefined,
) {
  // JSON keeps the fields unambiguous whatever characters a key or file name holds.
  return JSON.stringify([
    'storage-download-v2',
    bucket,
    key,
    expires,
    filename ?? null,
    user ?? null,
  ]);
}

function isErrno(error: unknown, ...codes: string[]): boolean {
  return codes.includes((error as NodeJS.ErrnoException | undefined)?.code ?? '');
}

export function createFsObjectStore(options: FsObjectStoreOptions): FsObjectStore {
  if (options.signingKey.length < 32) {
    throw new Error('The storage signing key must be at least 32 bytes');
  }
  const root = options.root;
  const publicUrl = options.publicUrl.replace(/\/+$/, '');
  const tmpDir = join(root, TMP_DIR);

  // Validation happens before any path is built, so join() never sees '..' or an absolute key.
  const bucketDir = (bucket: string) => {
    assertValidBucket(bucket);
    return join(root, bucket);
  };
  const dataPath = (bucket: string, key: string) => {
    assertValidKey(key);
    return join(bucketDir(bucket), ...key.split('/'));
  };
  // Metadata mirrors the data tree exactly, so it can only conflict where the data does.
  const metaPath = (bucket: string, key: string) => join(root, META_DIR, bucket, ...key.split('/'));

  /** One stat call, made synchronously like the puts' (see SYNC_WRITE_MAX_BYTES). */
  function assertBucketExists(bucket: string): void {
    let info: ReturnType<typeof statSync>;
    try {
      info = statSync(bucketDir(bucket), { throwIfNoEntry: false });
    } catch (error) {
      if (!isErrno(error, 'ENOTDIR')) throw error;
    }
    if (!info?.isDirectory()) throw new BucketNotFoundError(bucket);
  }

  /*
   * A put of an object held in memory is made of calls that each take microseconds once the
   * bytes are in the page cache (write a temporary file, make the folder, rename). They are made
   * synchronously: handing each to libuv's thread pool cost more CPU than the call itself (a
   * backfill writes hundreds of thousands of small files). Bodies above SYNC_WRITE_MAX_BYTES and
   * streamed bodies are written asynchronously, so the event loop never waits on a large write.
   */
  const SYNC_WRITE_MAX_BYTES = 1024 * 1024;

  // Made once, not on every write; a write that finds it gone makes it again (writeTemp).
  let tmpReady = false;
  // Temporary names: this store's random part and a counter (no random bytes drawn per file).
  const tmpPrefix = `${process.pid}-${randomBytes(6).toString('hex')}`;
  let tmpCount = 0;
  function tempFile(): string {
    if (!tmpReady) {
      mkdirSync(tmpDir, { recursive: true, mode: PRIVATE_DIR_MODE });
      tmpReady = true;
    }
    tmpCount += 1;
    return join(tmpDir, `${tmpPrefix}-${tmpCount}`);
  }

  /** Writes a temporary file, making the temporary folder again if it was removed meanwhile. */
  async function writeTemp(path: string, body: string | Buffer): Promise<void> {
    const write = () =>
      Buffer.byteLength(body) <= SYNC_WRITE_MAX_BYTES
        ? writeFileSync(path, body, { mode: PRIVATE_FILE_MODE })
        : writeFile(path, body, { mode: PRIVATE_FILE_MODE });
    try {
      await write();
    } catch (error) {
      if (!isErrno(error, 'ENOENT')) throw error;
      mkdirSync(tmpDir, { recursive: true, mode: PRIVATE_DIR_MODE });
      await write();
    }
  }

  // Folders known to exist (made or written into lately): a put into one is a rename, one call;
  // a put into another makes its folder first (a new partition's), which costs no failed call.
  const knownDirs = new Set<string>();
  const KNOWN_DIRS_KEPT = 10_000;

  /**
   * rename() is atomic on one file system: readers see the old object or the new, never half.
   * Answers whether the target's folder had to be made (so nothing of the key was there before).
   */
  function moveIntoPlace(bucket: string, tmp: string, target: string): boolean {
    const dir = dirname(target);
    let made = false;
    for (let attempt = 0; ; attempt++) {
      if (!knownDirs.has(dir)) {
        // Within a bucket that exists: mkdir would otherwise make the bucket too.
        assertBucketExists(bucket);
        made = mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE }) !== undefined;
        if (knownDirs.size >= KNOWN_DIRS_KEPT) knownDirs.clear();
        knownDirs.add(dir);
      }
      try {
        renameSync(tmp, target);
        return made;
      } catch (error) {
        // A concurrent delete pruned the folder meanwhile: make it again.
        if (!isErrno(error, 'ENOENT') || attempt >= 3) throw error;
        knownDirs.delete(dir);
      }
    }
  }

  /** Removes a file and the folders it leaves empty (up to `stopAt`); gone already is fine. */
  async function removeFile(
    file: string,
    stopAt: string,
  ): Promise<'removed' | 'absent' | 'folder'> {
    try {
      await unlink(file);
    } catch (error) {
      if (isErrno(error, 'ENOENT', 'ENOTDIR')) return 'absent';
      if (isErrno(error, 'EISDIR', 'EPERM')) return 'folder';
      throw error;
    }
    await pruneEmptyDirs(dirname(file), stopAt);
    return 'removed';
  }

  /** Removes folders left empty by a delete, up to (not including) `stopAt`. */
  async function pruneEmptyDirs(from: string, stopAt: string): Promise<void> {
    let dir = from;
    while (dir.startsWith(`${stopAt}/`)) {
      try {
        await rmdir(dir);
      } catch {
        return;
      }
      dir = dirname(dir);
    }
  }

  /** The keys under `dir` (whose keys start with `keyPrefix`) that can start with `prefix`. */
  async function walk(
    dir: string,
    keyPrefix: string,
    prefix: string,
    out: string[],
  ): Promise<void> {
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      if (isErrno(error, 'ENOENT', 'ENOTDIR')) return;
      throw error;
    }
    for (const entry of entries) {
      const key = `${keyPrefix}${entry.name}`;
      if (entry.isDirectory()) {
        // Only folders on the prefix's way, or inside it, can hold its keys.
        const inner = `${key}/`;
        if (inner.startsWith(prefix) || prefix.startsWith(inner)) {
          await walk(join(dir, entry.name), inner, prefix, out);
        }
      } else if (entry.isFile() && key.startsWith(prefix)) out.push(key);
    }
  }

  return {
    driver: 'fs',

    localPath: dataPath,

    async ensureBucket(bucket) {
      await mkdir(bucketDir(bucket), { recursive: true, mode: PRIVATE_DIR_MODE });
    },

    async putObject(bucket, key, body, opts) {
      const target = dataPath(bucket, key);
      assertValidBucket(bucket);
      const contentType = opts?.contentType ?? DEFAULT_CONTENT_TYPE;
      // Most objects have the type their name implies: those need no metadata file (a second
      // file written and renamed into a mirrored folder tree, half of a put's work).
      const meta = contentType === typeOfKey(key) ? null : JSON.stringify({ contentType });
      const dataTmp = tempFile();
      const metaTmp = meta === null ? null : tempFile();
      try {
        if (typeof body === 'string' || Buffer.isBuffer(body)) {
          await writeTemp(dataTmp, body);
        } else {
          await mkdir(tmpDir, { recursive: true, mode: PRIVATE_DIR_MODE });
          await pipeline(body, createWriteStream(dataTmp, { mode: PRIVATE_FILE_MODE }));
        }
        if (metaTmp !== null && meta !== null) {
          await writeTemp(metaTmp, meta);
          moveIntoPlace(bucket, metaTmp, metaPath(bucket, key));
        }
        const newFolder = moveIntoPlace(bucket, dataTmp, target);
        // A metadata file an earlier put of this key left would now say the wrong type (there
        // is none when the key's folder was only just made; asked without a failing call).
        if (metaTmp === null && !newFolder && existsSync(metaPath(bucket, key))) {
          await removeFile(metaPath(bucket, key), join(root, META_DIR, bucket));
        }
      } catch (error) {
        await Promise.all(
          [dataTmp, metaTmp].map((file) => (file ? unlink(file).catch(() => {}) : undefined)),
        );
        if (isErrno(error, 'ENOTDIR', 'EISDIR', 'EEXIST', 'ENOTEMPTY')) {
          // A file system cannot hold both `a` and `a/b`; S3 can. Keys should not rely on it.
          throw new AppError(
            409,
            'OBJECT_KEY_CONFLICT',
            `Object key ${JSON.stringify(key)} conflicts with an existing object or folder`,
          );
        }
        throw error;
      }
    },

    async getObject(bucket, key) {
      const path = dataPath(bucket, key);
      const handle = await open(path, 'r').catch((error: unknown) => {
        if (isErrno(error, 'ENOENT', 'ENOTDIR', 'EISDIR'))
          throw new ObjectNotFoundError(bucket, key);
        throw error;
      });
      try {
        // Size and stream come from the same open file, so a concurrent replace cannot mix them.
        const info = await handle.stat();
        if (!info.isFile()) throw new ObjectNotFoundError(bucket, key);
        const contentType = await readFile(metaPath(bucket, key), 'utf8')
          .then((text) => (JSON.parse(text) as { contentType?: string }).contentType)
          .catch(() => undefined);
        return {
          body: handle.createReadStream(),
          contentType: contentType ?? typeOfKey(key),
          size: info.size,
        };
      } catch (error) {
        await handle.close();
        throw error;
      }
    },

    async listObjects(bucket, opts = {}) {
      assertBucketExists(bucket);
      const limit = normalizeLimit(opts.limit);
      const prefix = opts.prefix ?? '';
      // Only the folder named by the prefix's complete segments can hold matching keys.
      const folder = prefix.includes('/') ? prefix.slice(0, prefix.lastIndexOf('/') + 1) : '';
      if (folder) assertValidKey(folder.slice(0, -1));
      const keys: string[] = [];
      await walk(
        join(bucketDir(bucket), ...folder.split('/').filter(Boolean)),
        folder,
        prefix,
        keys,
      );
      const cursor = opts.cursor;
      const matching = keys
        .filter((key) => key.startsWith(prefix) && (cursor === undefined || key > cursor))
        .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

      const objects: StoredObject[] = [];
      let index = 0;
      for (; index < matching.length && objects.length < limit; index++) {
        const key = matching[index] as string;
        const info = await stat(dataPath(bucket, key)).catch(() => undefined);
        // Deleted since the walk: skip rather than fail the page.
        if (info) objects.push({ key, size: info.size, lastModified: info.mtime });
      }
      const page: ObjectPage = { objects };
      const last = objects.at(-1);
      if (index < matching.length && last) page.nextCursor = last.key;
      return page;
    },

    async deleteObject(bucket, key) {
      // The data first: a folder where the key's file should be stops here, its metadata stays.
      if ((await removeFile(dataPath(bucket, key), bucketDir(bucket))) === 'folder') return;
      await removeFile(metaPath(bucket, key), join(root, META_DIR, bucket));
    },

    async signedDownloadUrl(bucket, key, opts) {
      assertValidBucket(bucket);
      assertValidKey(key);
      assertValidExpiry(opts.expiresInSeconds);
      const expires = Math.floor(Date.now() / 1000) + opts.expiresInSeconds;
      const query = new URLSearchParams({ expires: String(expires) });
      if (opts.filename !== undefined) query.set('filename', opts.filename);
      if (opts.user !== undefined) query.set('user', opts.user);
      query.set(
        'signature',
        hmacSign(
          options.signingKey,
          canonicalDownload(bucket, key, expires, opts.filename, opts.user),
        ),
      );
      return `${publicUrl}${DOWNLOAD_ROUTE_PREFIX}/${bucket}/${encodeKey(key)}?${query}`;
    },

    verifySignature(download, now = new Date()) {
      const expiresText = String(download.expires ?? '');
      if (!/^\d{1,12}$/.test(expiresText) || !download.signature) return false;
      const expires = Number(expiresText);
      if (expires * 1000 <= now.getTime()) return false;
      return hmacVerify(
        options.signingKey,
        canonicalDownload(download.bucket, download.key, expires, download.filename, download.user),
        download.signature,
      );
    },

    close() {},
  };
}
