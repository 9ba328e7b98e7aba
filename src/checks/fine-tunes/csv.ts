// A small CSV reader for the fine-tune results file (RFC 4180: commas, CRLF or LF, double-quoted
// fields with "" escapes). The results file is a numeric table, so a dependency would buy nothing.

export interface Csv {
  header: string[];
  rows: string[][];
}

/** Parse CSV text; a string is the reason it is not a CSV table. */
export function parseCsv(text: string): Csv | string {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  let i = 0;
  const endField = () => { record.push(field); field = ''; };
  const endRecord = () => { endField(); records.push(record); record = []; };
  while (i < text.length) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i += 2; continue; }
      if (c === '"') { quoted = false; i++; continue; }
      field += c;
      i++;
      continue;
    }
    if (c === '"' && field === '') { quoted = true; i++; continue; }
    if (c === ',') { endField(); i++; continue; }
    if (c === '\r' || c === '\n') {
      endRecord();
      i += c === '\r' && text[i + 1] === '\n' ? 2 : 1;
      continue;
    }
    field += c;
    i++;
  }
  if (quoted) return 'a quoted field is not closed';
  if (field !== '' || record.length > 0) endRecord();
  // Blank lines (e.g. the final newline) are not records.
  const table = records.filter((r) => !(r.length === 1 && r[0] === ''));
  if (table.length === 0) return 'the file is empty';
  const [header, ...rows] = table as [string[], ...string[][]];
  return { header, rows };
}

/** A numeric cell; undefined for an empty or non-numeric cell. */
export function num(cell: string | undefined): number | undefined {
  if (cell === undefined || cell.trim() === '') return undefined;
  const n = Number(cell);
  return Number.isFinite(n) ? n : undefined;
}
