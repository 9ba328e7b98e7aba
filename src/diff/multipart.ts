// A recorded multipart request, sent again: its fields as recorded, each file rebuilt — images and audio from
// their fixture description (they are pure functions of it), small text files from the content the recording
// kept — and checked against the recorded sha256, so what is sent is byte for byte what was recorded.

import { buildFile } from '../fixtures/build.ts';
import type { FileFixtureSpec } from '../suite/types.ts';
import type { MultipartCassetteSummary } from '../transport/cassette.ts';
import { boundaryFor, encodeMultipart } from '../transport/multipart.ts';
import { sha256 } from '../transport/cassette.ts';

type RecordedFile = MultipartCassetteSummary['files'][number];

/** Fixture descriptions (src/fixtures/build.ts) back to the spec that builds them. */
const FIXTURES: Array<[RegExp, (m: RegExpExecArray) => Omit<FileFixtureSpec, 'field' | 'filename'>]> = [
  [/^png (\d+)x(\d+) alpha=(\S+)( noise)?$/, (m) => ({ png: { width: Number(m[1]), height: Number(m[2]), alpha: m[3] as never, ...(m[4] ? { noise: true } : {}) } })],
  [/^wav ([\d.]+)s$/, (m) => ({ wav: { seconds: Number(m[1]) } })],
  [/^(\d+) bytes of "(.*)"$/s, (m) => ({ bytes: { size: Number(m[1]), fill: m[2]! } })],
  [/^([a-z0-9-]+\.[a-z0-9]+) \(\d+ bytes, recorded\)$/, (m) => ({ media: m[1]! })],
];

function rebuild(file: RecordedFile): Uint8Array | undefined {
  if (file.text !== undefined) return Buffer.from(file.text, 'utf8');
  for (const [pattern, spec] of FIXTURES) {
    const m = pattern.exec(file.fixture ?? '');
    if (m) return buildFile({ field: file.field, filename: file.filename, ...spec(m) }).bytes;
  }
  return undefined;
}

export function rebuildMultipart(m: MultipartCassetteSummary, seed: string): { body: Uint8Array; contentType: string } | { why: string } {
  if (m.fromHar) return { why: 'a multipart body imported from a HAR, whose files cannot be sent again' };
  const files: Array<{ name: string; filename: string; contentType: string; data: Uint8Array }> = [];
  for (const f of m.files) {
    const bytes = rebuild(f);
    if (bytes === undefined) return { why: `the file ${f.filename} (${f.fixture ?? 'no description'}) was recorded without its bytes and cannot be rebuilt` };
    if (sha256(bytes) !== f.sha256) return { why: `the rebuilt ${f.filename} differs from the recorded one (sha256)` };
    files.push({ name: f.field, filename: f.filename, contentType: f.contentType, data: bytes });
  }
  return encodeMultipart([...Object.entries(m.fields).map(([name, value]) => ({ name, value })), ...files], boundaryFor(seed));
}
