import type { FastifyInstance } from 'fastify';

/** Tiny but real files: their bytes carry the formats' signatures. */
export const SAMPLE_FILES = {
  pdf: Buffer.from(
    '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
  ),
  png: Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    'base64',
  ),
  exe: Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200, 0x90)]),
};

/** Sends a multipart/form-data request the way a browser's FormData does. */
export async function injectMultipart(
  app: FastifyInstance,
  options: {
    url: string;
    method?: 'POST' | 'PUT';
    headers?: Record<string, string>;
    fields: Record<string, string>;
    files?: { field: string; name: string; data: Buffer; type?: string }[];
  },
) {
  const form = new FormData();
  for (const [key, value] of Object.entries(options.fields)) form.append(key, value);
  for (const file of options.files ?? []) {
    form.append(
      file.field,
      new Blob([new Uint8Array(file.data)], { type: file.type ?? 'application/octet-stream' }),
      file.name,
    );
  }
  const request = new Request('http://localhost/upload', { method: 'POST', body: form });
  return app.inject({
    method: options.method ?? 'POST',
    url: options.url,
    headers: { ...options.headers, 'content-type': request.headers.get('content-type') as string },
    payload: Buffer.from(await request.arrayBuffer()),
    remoteAddress: `198.18.0.${Math.floor(Math.random() * 254) + 1}`,
  });
}
