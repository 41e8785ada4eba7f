/**
 * Whether a Compound File Binary container (what file-type reports as application/x-cfb) is a
 * legacy Word document: its root storage holds a 'WordDocument' stream ([MS-DOC] 2.1.1). Excel,
 * PowerPoint, Outlook and installer files use the same container with other streams, and an
 * embedded Word object sits in a sub-storage, so neither the container nor the name alone makes
 * a .doc. Reads only the header, the FAT and the directory; any inconsistency answers false.
 */

const SIGNATURE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
/** Sector numbers at or above this are markers (end of chain, free, FAT, DIFAT). */
const MAX_REGULAR_SECTOR = 0xfffffffa;
const NO_ENTRY = 0xffffffff;
const ENTRY_BYTES = 128;

interface DirectoryEntry {
  name: string;
  type: number;
  left: number;
  right: number;
  child: number;
}

export function isWordDocument(data: Buffer): boolean {
  try {
    return rootNames(data)?.has('WordDocument') ?? false;
  } catch {
    // A read past the end of a truncated container.
    return false;
  }
}

function rootNames(data: Buffer): Set<string> | undefined {
  if (data.length < 512 || !data.subarray(0, 8).equals(SIGNATURE)) return undefined;
  const shift = data.readUInt16LE(0x1e);
  if (shift !== 9 && shift !== 12) return undefined;
  const size = 1 << shift;
  const perSector = size / 4;
  const maxSectors = Math.floor(data.length / size);
  const sectorAt = (n: number) => {
    const offset = (n + 1) * size;
    if (offset + size > data.length) throw new RangeError('sector outside the file');
    return offset;
  };

  // The FAT's own sectors: the first 109 are listed in the header, the rest in the DIFAT chain.
  const fatSectors: number[] = [];
  const collect = (offset: number, count: number) => {
    for (let i = 0; i < count; i++) {
      const sector = data.readUInt32LE(offset + i * 4);
      if (sector < MAX_REGULAR_SECTOR) fatSectors.push(sector);
    }
  };
  collect(0x4c, 109);
  let difat = data.readUInt32LE(0x44);
  for (let hops = 0; difat < MAX_REGULAR_SECTOR; hops++) {
    if (hops > maxSectors) return undefined;
    const offset = sectorAt(difat);
    collect(offset, perSector - 1);
    difat = data.readUInt32LE(offset + (perSector - 1) * 4);
  }
  const next = (sector: number) => {
    const fatSector = fatSectors[Math.floor(sector / perSector)];
    if (fatSector === undefined) throw new RangeError('sector outside the FAT');
    return data.readUInt32LE(sectorAt(fatSector) + (sector % perSector) * 4);
  };

  const entries: DirectoryEntry[] = [];
  const visited = new Set<number>();
  for (let sector = data.readUInt32LE(0x30); sector < MAX_REGULAR_SECTOR; sector = next(sector)) {
    if (visited.has(sector)) return undefined;
    visited.add(sector);
    const offset = sectorAt(sector);
    for (let at = offset; at < offset + size; at += ENTRY_BYTES) {
      const nameBytes = Math.min(64, data.readUInt16LE(at + 0x40));
      entries.push({
        name: nameBytes >= 2 ? data.toString('utf16le', at, at + nameBytes - 2) : '',
        type: data[at + 0x42] ?? 0,
        left: data.readUInt32LE(at + 0x44),
        right: data.readUInt32LE(at + 0x48),
        child: data.readUInt32LE(at + 0x4c),
      });
    }
  }

  // The root's children form a tree of siblings (left/right) under the root entry's child.
  const root = entries[0];
  if (root?.type !== 5) return undefined;
  const names = new Set<string>();
  const seen = new Set<number>();
  const pending = [root.child];
  while (pending.length > 0) {
    const id = pending.pop() as number;
    if (id === NO_ENTRY || seen.has(id)) continue;
    const entry = entries[id];
    if (!entry) return undefined;
    seen.add(id);
    if (entry.type === 2) names.add(entry.name);
    pending.push(entry.left, entry.right);
  }
  return names;
}
