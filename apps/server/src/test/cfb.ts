/**
 * Minimal Compound File Binary containers (the legacy Office format, [MS-CFB] version 3) for
 * upload tests: a Word document is one with a 'WordDocument' stream in its root storage, an Excel
 * workbook one with a 'Workbook' stream. Each stream gets 4096 bytes of regular sectors.
 */

interface Entry {
  name: string;
  /** 1 storage, 2 stream, 5 root. */
  type: 1 | 2 | 5;
  child?: number;
  left?: number;
  right?: number;
  startSector?: number;
  size?: number;
}

const SECTOR = 512;
const NONE = 0xffffffff;
const END_OF_CHAIN = 0xfffffffe;
const FAT_SECTOR = 0xfffffffd;
const STREAM_SECTORS = 4096 / SECTOR;

/**
 * A container whose root holds `streams` (as siblings), and optionally a storage `nested` that
 * holds further streams (as an embedded object would).
 */
export function cfbContainer(streams: string[], nested?: { storage: string; streams: string[] }) {
  const entries: Entry[] = [{ name: 'Root Entry', type: 5 }];
  let sector = 2; // 0: the FAT, 1: the directory
  const addStream = (name: string) => {
    entries.push({ name, type: 2, startSector: sector, size: 4096 });
    sector += STREAM_SECTORS;
    return entries.length - 1;
  };
  // Siblings chained to the right: a degenerate but valid red-black tree.
  const chain = (ids: number[]) => {
    for (let i = 0; i < ids.length - 1; i++) {
      const entry = entries[ids[i] as number];
      if (entry) entry.right = ids[i + 1];
    }
    return ids[0];
  };
  const rootChildren = streams.map(addStream);
  if (nested) {
    entries.push({ name: nested.storage, type: 1 });
    const storageId = entries.length - 1;
    const storage = entries[storageId] as Entry;
    storage.child = chain(nested.streams.map(addStream));
    rootChildren.push(storageId);
  }
  (entries[0] as Entry).child = chain(rootChildren);
  if (entries.length > SECTOR / 128) throw new Error('one directory sector holds 4 entries');

  const sectors = sector;
  const data = Buffer.alloc(SECTOR * (sectors + 1));
  // Header.
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(data, 0);
  data.writeUInt16LE(0x3e, 0x18);
  data.writeUInt16LE(3, 0x1a);
  data.writeUInt16LE(0xfffe, 0x1c);
  data.writeUInt16LE(9, 0x1e);
  data.writeUInt16LE(6, 0x20);
  data.writeUInt32LE(1, 0x2c);
  data.writeUInt32LE(1, 0x30);
  data.writeUInt32LE(4096, 0x38);
  data.writeUInt32LE(END_OF_CHAIN, 0x3c);
  data.writeUInt32LE(END_OF_CHAIN, 0x44);
  for (let i = 0; i < 109; i++) data.writeUInt32LE(i === 0 ? 0 : NONE, 0x4c + i * 4);
  // FAT (sector 0).
  const fat = SECTOR;
  for (let i = 0; i < SECTOR / 4; i++) data.writeUInt32LE(NONE, fat + i * 4);
  data.writeUInt32LE(FAT_SECTOR, fat);
  data.writeUInt32LE(END_OF_CHAIN, fat + 4);
  for (const entry of entries) {
    if (entry.startSector === undefined) continue;
    for (let s = entry.startSector; s < entry.startSector + STREAM_SECTORS; s++)
      data.writeUInt32LE(
        s === entry.startSector + STREAM_SECTORS - 1 ? END_OF_CHAIN : s + 1,
        fat + s * 4,
      );
  }
  // Directory (sector 1).
  const directory = 2 * SECTOR;
  for (let i = 0; i < SECTOR / 128; i++) {
    const at = directory + i * 128;
    data.writeUInt32LE(NONE, at + 0x44);
    data.writeUInt32LE(NONE, at + 0x48);
    data.writeUInt32LE(NONE, at + 0x4c);
    const entry = entries[i];
    if (!entry) continue;
    data.write(entry.name, at, 'utf16le');
    data.writeUInt16LE((entry.name.length + 1) * 2, at + 0x40);
    data[at + 0x42] = entry.type;
    data[at + 0x43] = 1; // black
    data.writeUInt32LE(entry.left ?? NONE, at + 0x44);
    data.writeUInt32LE(entry.right ?? NONE, at + 0x48);
    data.writeUInt32LE(entry.child ?? NONE, at + 0x4c);
    data.writeUInt32LE(entry.startSector ?? (entry.type === 5 ? END_OF_CHAIN : 0), at + 0x74);
    data.writeUInt32LE(entry.size ?? 0, at + 0x78);
  }
  return data;
}

/** A legacy Word document's container, and others that are not Word documents. */
export const CFB_SAMPLES = {
  word: () => cfbContainer(['1Table', 'WordDocument', '\u0005SummaryInformation']),
  excel: () => cfbContainer(['Workbook', '\u0005SummaryInformation']),
  /** A workbook with an embedded Word object: the WordDocument stream is not in the root. */
  excelWithEmbeddedWord: () =>
    cfbContainer(['Workbook'], { storage: 'MBD0001', streams: ['WordDocument'] }),
};
