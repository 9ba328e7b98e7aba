// Headers as the judge and the cassettes read them: one value per lower-cased name, repeated values joined with ", ".

/** From Node's or undici's header object (a repeated header as an array). */
export function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name in raw) {
    const v = raw[name];
    if (v === undefined) continue;
    out[name.toLowerCase()] = typeof v === 'string' ? v : v.join(', ');
  }
  return out;
}

/** From a cassette's rawHeaders (names and values in pairs). */
export function headersOfPairs(raw: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    out[name] = out[name] === undefined ? raw[i + 1]! : `${out[name]}, ${raw[i + 1]!}`;
  }
  return out;
}
