import CFB from 'cfb';

/**
 * Whether a Compound File Binary container (what file-type reports as application/x-cfb) is a
 * legacy Word document: its root storage holds a 'WordDocument' stream. Excel, PowerPoint,
 * Outlook and installer files use the same container with other streams, and an embedded Word
 * object sits in a sub-storage, so neither the container nor the name alone makes a .doc.
 * The container is read by SheetJS's `cfb`; anything it cannot read answers false.
 */

const SIGNATURE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
/** Directory entry type of a stream (1 storage, 2 stream, 5 root). */
const STREAM = 2;

export function isWordDocument(data: Buffer): boolean {
  // cfb also opens ZIP archives; only the CFB signature may pass here.
  if (data.length < 512 || !data.subarray(0, 8).equals(SIGNATURE)) return false;
  let container: CFB.CFB$Container;
  try {
    container = CFB.read(data, { type: 'buffer' });
  } catch {
    // A truncated or inconsistent container.
    return false;
  }
  const root = container.FullPaths[0];
  if (root === undefined) return false;
  // Full paths name the root first ("Root Entry/"); a root stream is that plus its name.
  return container.FullPaths.some(
    (path, i) => path === `${root}WordDocument` && container.FileIndex[i]?.type === STREAM,
  );
}
