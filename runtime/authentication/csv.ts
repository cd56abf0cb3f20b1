/**
 * Reading CSV records as Go's encoding/csv does with FieldsPerRecord = -1 (kube's token file):
 * comma-separated fields, double-quoted fields may hold commas, newlines and `""` escapes,
 * blank lines are skipped, `\r\n` ends a line like `\n`.
 */
export class CSVError extends Error {}

export function parseCSV(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let i = 0;
  let line = 1;
  const endRecord = () => {
    record.push(field);
    // Go skips empty lines: a record of one empty field that came from a blank line.
    if (!(record.length === 1 && record[0] === '')) records.push(record);
    record = [];
    field = '';
  };
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"' && field === '') {
      i++;
      for (;;) {
        if (i >= text.length) throw new CSVError(`record on line ${line}: extraneous or missing " in quoted-field`);
        const q = text[i]!;
        if (q === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        if (q === '\n') line++;
        field += q;
        i++;
      }
      const next = text[i];
      if (next !== undefined && next !== ',' && next !== '\n' && next !== '\r') {
        throw new CSVError(`record on line ${line}: extraneous or missing " in quoted-field`);
      }
      continue;
    }
    if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\n') {
      endRecord();
      line++;
    } else if (c === '\r' && text[i + 1] === '\n') {
      // The \n ends the record.
    } else if (c === '"') {
      throw new CSVError(`record on line ${line}: bare " in non-quoted-field`);
    } else {
      field += c;
    }
    i++;
  }
  if (field !== '' || record.length > 0) endRecord();
  return records;
}
