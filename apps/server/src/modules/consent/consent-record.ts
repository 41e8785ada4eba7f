import { CONSENT_RECORD_TEXTS as T } from '@research/contracts';
import { PDFDocument, type PDFFont, type PDFPage, StandardFonts } from 'pdf-lib';

/**
 * The signed-record PDF: who signed which version (with its SHA-256), when and from which
 * address, the statements agreed to, then the form itself: a Markdown form as its text, line by
 * line; an uploaded PDF form as its own pages, copied in.
 */

export interface RecordInput {
  studyName: string;
  participantId: string;
  versionNumber: number;
  versionSha256: string;
  fullName: string;
  signedAt: Date;
  ip: string | null;
  statements: readonly string[];
  markdown: string | null;
  pdf: { name: string; bytes: Buffer } | null;
}

const PAGE = { width: 595.28, height: 841.89, margin: 50 };
const SIZE = 10;
const LINE = 14;

export async function consentRecordPdf(input: RecordInput): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.setTitle(`${T.title} – ${input.studyName}`);
  doc.setCreationDate(input.signedAt);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const writer = pageWriter(doc, font);

  writer.line(T.title, bold, 16);
  writer.gap();
  const fields: [string, string][] = [
    [T.study, input.studyName],
    [T.participant, input.participantId],
    [T.version, String(input.versionNumber)],
    [T.versionSha, input.versionSha256],
    [T.signedBy, input.fullName],
    [T.signedAt, input.signedAt.toISOString()],
    [T.address, input.ip ?? '—'],
  ];
  for (const [label, value] of fields) {
    writer.line(label, bold);
    writer.wrapped(value);
  }
  if (input.statements.length > 0) {
    writer.gap();
    writer.line(T.statements, bold);
    for (const statement of input.statements) writer.wrapped(`[x] ${statement}`);
  }
  writer.gap();
  writer.line(T.form, bold, 12);
  if (input.markdown !== null) {
    for (const line of input.markdown.split(/\r?\n/)) writer.wrapped(line);
  }
  if (input.pdf) {
    writer.wrapped(T.pdfForm(input.pdf.name));
    try {
      const form = await PDFDocument.load(input.pdf.bytes, { ignoreEncryption: false });
      const pages = await doc.copyPages(form, form.getPageIndices());
      for (const page of pages) doc.addPage(page);
    } catch {
      // A form pdf-lib cannot read stays named by its name and SHA-256 above.
    }
  }
  return Buffer.from(await doc.save());
}

/** Writes lines top-down, starting a new page when one is full. */
function pageWriter(doc: PDFDocument, font: PDFFont) {
  let page: PDFPage = doc.addPage([PAGE.width, PAGE.height]);
  let y = PAGE.height - PAGE.margin;
  const width = PAGE.width - 2 * PAGE.margin;
  const supported = new Set(font.getCharacterSet());

  /** Characters the standard font cannot draw become '?', so any name or text is recorded. */
  const drawable = (text: string) =>
    [...text.replace(/\t/g, '    ')]
      .map((c) => (supported.has(c.codePointAt(0) ?? 0) ? c : '?'))
      .join('');

  function line(text: string, with_: PDFFont = font, size = SIZE) {
    if (y < PAGE.margin + LINE) {
      page = doc.addPage([PAGE.width, PAGE.height]);
      y = PAGE.height - PAGE.margin;
    }
    page.drawText(drawable(text), { x: PAGE.margin, y, size, font: with_ });
    y -= size > SIZE ? size + 6 : LINE;
  }

  function wrapped(text: string) {
    const safe = drawable(text);
    if (safe.trim() === '') return gap();
    let rest = safe;
    while (rest.length > 0) {
      let cut = rest.length;
      while (font.widthOfTextAtSize(rest.slice(0, cut), SIZE) > width) {
        const space = rest.lastIndexOf(' ', cut - 1);
        cut = space > 0 ? space : cut - 1;
      }
      line(rest.slice(0, cut));
      rest = rest.slice(cut).replace(/^ /, '');
    }
  }

  const gap = () => {
    y -= LINE / 2;
  };

  return { line, wrapped, gap };
}
