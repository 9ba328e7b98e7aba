// The zip reader behind judge FILE.har.zip, on archives written by another implementation (Python's zipfile):
// stored and deflated entries, an empty one, data descriptors (written to a pipe), a comment that holds the
// end-of-directory signature, and macOS's __MACOSX folder beside the HAR.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { harToCassette, parseHar, readHar } from '../../src/transport/har.ts';
import { isZip, zipEntries } from '../../src/transport/zip.ts';

const PY = `
import sys, zipfile, io
out, mode = sys.argv[1], sys.argv[2]
def write(z):
    at = 'export/' if mode == 'folder' else ''
    z.writestr(at + 'har.har', open(sys.argv[3]).read(), compress_type=zipfile.ZIP_DEFLATED)
    z.writestr(at + 'abc.json', '{"object":"list","data":[]}', compress_type=zipfile.ZIP_STORED)
    z.writestr(at + 'empty.bin', b'', compress_type=zipfile.ZIP_DEFLATED)
    if mode == 'macos': z.writestr('__MACOSX/._har.har', b'\\x00\\x05\\x16\\x07', compress_type=zipfile.ZIP_DEFLATED)
    if mode == 'comment': z.comment = b'PK\\x05\\x06' + b'x' * 40
if mode == 'pipe':
    buf = io.BytesIO()
    class Unseekable(io.RawIOBase):
        def writable(self): return True
        def write(self, b): return buf.write(b)
    with zipfile.ZipFile(Unseekable(), 'w') as z: write(z)
    open(out, 'wb').write(buf.getvalue())
else:
    with zipfile.ZipFile(out, 'w') as z: write(z)
`;

const HAR = JSON.stringify({ log: { version: '1.2', creator: { name: 'Playwright' }, entries: [
  { request: { method: 'GET', url: 'https://api.example.test/v1/models', headers: [] }, response: { status: 200, headers: [], content: { size: 27, mimeType: 'application/json', _file: 'abc.json' } } },
] } });

function archive(mode: 'plain' | 'pipe' | 'comment' | 'macos' | 'folder' | 'trailing'): string {
  const dir = mkdtempSync(join(tmpdir(), 'zip-'));
  writeFileSync(join(dir, 'in.har'), HAR);
  writeFileSync(join(dir, 'gen.py'), PY);
  const out = join(dir, `${mode}.har.zip`);
  execFileSync('python3', [join(dir, 'gen.py'), out, mode, join(dir, 'in.har')]);
  // Bytes after the archive (a download padded, a file appended to): unzip and zipfile still read it.
  if (mode === 'trailing') writeFileSync(out, Buffer.concat([readFileSync(out), Buffer.alloc(16)]));
  return out;
}

describe('zip archives as other tools write them', () => {
  for (const mode of ['plain', 'pipe', 'comment', 'macos', 'folder', 'trailing'] as const) {
    it(`reads the HAR and its attachment (${mode})`, () => {
      const file = archive(mode);
      const bytes = readFileSync(file);
      expect(isZip(bytes)).toBe(true);
      const entries = zipEntries(bytes);
      const at = mode === 'folder' ? 'export/' : '';
      expect(entries.get(`${at}empty.bin`)!().length).toBe(0);
      expect(entries.get(`${at}abc.json`)!().toString()).toBe('{"object":"list","data":[]}');
      const har = readHar(file) as unknown as { log: { entries: Array<{ response: { content: { text?: string; encoding?: string } } }> } };
      const content = har.log.entries[0]!.response.content;
      expect(Buffer.from(content.text ?? '', 'base64').toString()).toBe('{"object":"list","data":[]}');
    });
  }
  it('the pipe-written archive really carries data descriptors (sizes zero in its local headers)', () => {
    const bytes = readFileSync(archive('pipe'));
    expect(bytes.readUInt16LE(6) & 8).toBe(8);
    expect(bytes.readUInt32LE(22)).toBe(0);
  });
  it('an attachment too large to hold as text is left out, saying so, not reported as missing', () => {
    const huge = Buffer.from('{}');
    huge.toString = () => { throw Object.assign(new Error('Cannot create a string longer than 0x1fffffe8 characters'), { code: 'ERR_STRING_TOO_LONG' }); };
    const left: string[] = [];
    const defs = harToCassette(parseHar(HAR, '/nowhere/x.har', () => huge) as Parameters<typeof harToCassette>[0], 'x', '/v1/', left);
    expect(defs).toEqual([]);
    expect(left).toEqual(['log.entries[0] GET /v1/models: its answer\'s body (abc.json) is 2 bytes, too large to read']);
  });
});
