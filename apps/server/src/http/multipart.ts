import {
  AUTH_HARDENING_MESSAGES,
  DOCUMENT_MAX_FILES,
  DOCUMENT_UPLOAD_MESSAGES,
} from '@research/contracts';
import type { FastifyRequest } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
import { AppError, badRequest, tooLarge } from '../errors.js';

export interface UploadedFile {
  fieldName: string;
  fileName: string;
  data: Buffer;
}

export interface UploadLimits {
  maxFileBytes: number;
  /** Shown in messages, e.g. '10 MB'. */
  maxFileLabel: string;
}

const tooManyFiles = () => tooLarge(DOCUMENT_UPLOAD_MESSAGES.tooManyFiles, 'TOO_MANY_FILES');

/**
 * Reads a multipart body into text fields and in-memory files (at most DOCUMENT_MAX_FILES), within
 * the given limits.
 */
export async function readMultipart(request: FastifyRequest, limits: UploadLimits) {
  const fields: Record<string, string> = {};
  const files: UploadedFile[] = [];
  // Without a boundary the body cannot be split into parts (the parser would throw a 500).
  if (!/;\s*boundary=\S/i.test(String(request.headers['content-type'] ?? '')))
    throw badRequest(AUTH_HARDENING_MESSAGES.multipartBoundary, 'BAD_MULTIPART');
  try {
    for await (const part of request.parts({
      limits: {
        // One part over the limit, so an empty file input (a part with no file) next to the
        // full number of files is not refused; a real file over it is, below.
        files: DOCUMENT_MAX_FILES + 1,
        fileSize: limits.maxFileBytes,
        fields: 50,
        fieldSize: 16 * 1024,
      },
    })) {
      if (part.type === 'file') {
        const data = await part.toBuffer();
        // An empty file input still sends a part with no name.
        if (part.filename || data.length > 0) {
          if (files.length >= DOCUMENT_MAX_FILES) throw tooManyFiles();
          files.push({ fieldName: part.fieldname, fileName: part.filename, data });
        }
      } else if (typeof part.value === 'string') {
        if (part.value.includes('\u0000') || part.fieldname.includes('\u0000'))
          throw new AppError(400, 'VALIDATION_ERROR', AUTH_HARDENING_MESSAGES.nullCharacter);
        fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_FILES_LIMIT') throw tooManyFiles();
    if (code === 'FST_REQ_FILE_TOO_LARGE')
      throw tooLarge(`Each file must be at most ${limits.maxFileLabel}.`, 'FILE_TOO_LARGE');
    if (code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT')
      throw tooLarge('The form has too many fields.', 'TOO_LARGE');
    if (error instanceof AppError) throw error;
    // Anything else the multipart parser rejects is a malformed body, not a server fault.
    if (error instanceof Error && !(error as { statusCode?: number }).statusCode)
      throw badRequest(AUTH_HARDENING_MESSAGES.multipartUnreadable, 'BAD_MULTIPART');
    throw error;
  }
  return { fields, files };
}

export interface AllowedType {
  mime: string;
  extensions: string[];
}

/**
 * The file's real type, read from its bytes. Refuses files whose content is not one of the
 * allowed types, or whose name claims another type than the content (a renamed file).
 */
export async function checkFileType(
  file: UploadedFile,
  allowed: AllowedType[],
  allowedLabel: string,
): Promise<string> {
  const sniffed = await fileTypeFromBuffer(file.data);
  const match = allowed.find((type) => type.mime === sniffed?.mime);
  if (!match) {
    throw new AppError(
      415,
      'UNSUPPORTED_FILE_TYPE',
      `"${file.fileName}" is not a ${allowedLabel} file.`,
    );
  }
  const extension = file.fileName.includes('.')
    ? file.fileName.split('.').pop()?.toLowerCase()
    : undefined;
  if (extension && !match.extensions.includes(extension)) {
    throw new AppError(
      415,
      'UNSUPPORTED_FILE_TYPE',
      `"${file.fileName}" does not match its content (${match.extensions[0]?.toUpperCase()}).`,
    );
  }
  return match.mime;
}

/** A file name safe to store and show: no path, no control characters, bounded length. */
export function safeFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? 'file';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
  const cleaned = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return (cleaned || 'file').slice(0, 200);
}
