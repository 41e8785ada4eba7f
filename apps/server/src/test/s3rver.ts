import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';

/** s3rver accepts these fixed credentials. */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export interface S3rver {
  endpoint: string;
  stop(): Promise<void>;
}

/**
 * s3rver (an S3-compatible server from npm) in a child process, over a folder of its own. It
 * needs --openssl-legacy-provider because it builds ListObjectsV2 continuation tokens with DES,
 * which OpenSSL 3 only offers through the legacy provider (without it a truncated listing fails
 * with a 500).
 */
export async function startS3rver(): Promise<S3rver> {
  const directory = await mkdtemp(join(tmpdir(), 's3rver-'));
  const script = `
    const S3rver = require(process.argv[1]);
    new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: process.argv[2] })
      .run()
      .then(({ port }) => console.log(JSON.stringify({ port })));
  `;
  const child: ChildProcess = spawn(
    process.execPath,
    [
      '--openssl-legacy-provider',
      '-e',
      script,
      createRequire(import.meta.url).resolve('s3rver'),
      directory,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const [line] = (await Promise.race([
    once(child.stdout as Readable, 'data'),
    once(child, 'exit').then(() => {
      throw new Error('s3rver exited before listening');
    }),
  ])) as [Buffer];
  const { port } = JSON.parse(line.toString('utf8')) as { port: number };
  return {
    endpoint: `http://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode === null) {
        child.kill();
        await once(child, 'exit');
      }
      await rm(directory, { recursive: true, force: true });
    },
  };
}
