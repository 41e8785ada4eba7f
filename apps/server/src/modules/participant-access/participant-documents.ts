import { randomUUID } from 'node:crypto';
import {
  DOCUMENT_UPLOAD_MESSAGES,
  PARTICIPANT_DOCUMENT_LIMITS,
  PARTICIPANT_DOCUMENT_MESSAGES,
} from '@research/contracts';
import { AppError } from '../../errors.js';
import {
  type AllowedType,
  checkFileType,
  safeFileName,
  type UploadedFile,
} from '../../http/multipart.js';
import type { ObjectStore } from '../../platform/object-store/types.js';
import type { DocumentRow } from '../participants/index.js';
import { isWordDocument } from './word-document.js';

const CFB_MIME = 'application/x-cfb';

/** The documents a participant may attach to the profile form, recognised by content. */
export const PARTICIPANT_DOCUMENT_TYPES: AllowedType[] = [
  { mime: 'application/pdf', extensions: ['pdf'] },
  // file-type names the legacy Office container by its format (Compound File Binary); only a
  // container with a WordDocument stream is taken, and stored as application/msword.
  { mime: CFB_MIME, extensions: ['doc'] },
  {
    mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    extensions: ['docx'],
  },
  { mime: 'image/jpeg', extensions: ['jpg', 'jpeg'] },
  { mime: 'image/png', extensions: ['png'] },
  { mime: 'image/gif', extensions: ['gif'] },
];

/** An upload that passed the checks, with the key it gets in the study bucket. */
export interface CheckedDocument {
  id: string;
  name: string;
  mimeType: string;
  data: Buffer;
  objectKey: string;
}

/** The stored type of one upload, or a 415 naming the file. */
async function documentType(file: UploadedFile, name: string): Promise<string> {
  const rejected = () =>
    new AppError(415, 'UNSUPPORTED_FILE_TYPE', PARTICIPANT_DOCUMENT_MESSAGES.rejected(name));
  const mimeType = await checkFileType(file, PARTICIPANT_DOCUMENT_TYPES, 'document').catch(() => {
    throw rejected();
  });
  if (mimeType !== CFB_MIME) return mimeType;
  if (!isWordDocument(file.data)) throw rejected();
  return 'application/msword';
}

/** Count, size and type of every upload, all checked before anything is stored. */
export async function checkDocuments(
  participantId: string,
  files: UploadedFile[],
): Promise<CheckedDocument[]> {
  if (files.length > PARTICIPANT_DOCUMENT_LIMITS.maxFiles)
    throw new AppError(413, 'TOO_MANY_FILES', DOCUMENT_UPLOAD_MESSAGES.tooManyFiles);
  const documents: CheckedDocument[] = [];
  for (const file of files) {
    const name = safeFileName(file.fileName);
    if (file.data.length > PARTICIPANT_DOCUMENT_LIMITS.maxFileBytes)
      throw new AppError(413, 'FILE_TOO_LARGE', PARTICIPANT_DOCUMENT_MESSAGES.tooLarge(name));
    const mimeType = await documentType(file, name);
    const id = randomUUID();
    documents.push({
      id,
      name,
      mimeType,
      data: file.data,
      objectKey: `participants/${participantId}/documents/${id}-${name.replace(/[^A-Za-z0-9._-]/g, '_')}`,
    });
  }
  return documents;
}

/** Puts the checked files into the study bucket (made on the first upload). */
export async function storeDocuments(
  objectStore: ObjectStore,
  bucket: string,
  documents: CheckedDocument[],
): Promise<void> {
  if (documents.length > 0) await objectStore.ensureBucket(bucket);
  for (const document of documents) {
    await objectStore.putObject(bucket, document.objectKey, document.data, {
      contentType: document.mimeType,
    });
  }
}

/** Removes stored files whose rows were never written: they would be orphans. */
export async function discardDocuments(
  objectStore: ObjectStore,
  bucket: string,
  documents: CheckedDocument[],
): Promise<void> {
  for (const d of documents) await objectStore.deleteObject(bucket, d.objectKey).catch(() => {});
}

/** A stored document as the profile answer lists it. */
export const documentView = (d: DocumentRow) => ({
  id: d.id,
  name: d.name,
  type: d.mimeType,
  size: d.sizeBytes,
  uploadedAt: d.uploadedAt.toISOString(),
});
