// A self-signed TLS certificate made at start-up, for host names that only one run resolves (the embedded
// reference server's "remote" plugins). Node can make keys and sign, not certificates: the X.509 structure
// (RFC 5280) is written here in DER, the few fields a TLS client checks: validity, subject, the names it
// covers (subjectAltName), and that it may act as its own authority. ECDSA P-256 with SHA-256.

import { generateKeyPairSync, randomBytes, sign, X509Certificate } from 'node:crypto';

export interface SelfSignedCertificate {
  /** PEM of the certificate: the server's `cert`, and the only `ca` a client of that run trusts. */
  cert: string;
  /** PEM (PKCS#8) of the private key. */
  key: string;
  /** SHA-256 fingerprint, as X509Certificate gives it. */
  fingerprint256: string;
}

const OID = {
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  commonName: '2.5.4.3',
  subjectAltName: '2.5.29.17',
  basicConstraints: '2.5.29.19',
  keyUsage: '2.5.29.15',
  extKeyUsage: '2.5.29.37',
  serverAuth: '1.3.6.1.5.5.7.3.1',
} as const;

// --- DER (X.690), only what a certificate needs ---------------------------------------------------------

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v >>= 8) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}
const tlv = (tag: number, content: Buffer): Buffer => Buffer.concat([Buffer.from([tag]), length(content.length), content]);
const sequence = (...items: Buffer[]): Buffer => tlv(0x30, Buffer.concat(items));
const set = (...items: Buffer[]): Buffer => tlv(0x31, Buffer.concat(items));
const explicit = (n: number, content: Buffer): Buffer => tlv(0xa0 | n, content);
const octetString = (content: Buffer): Buffer => tlv(0x04, content);
const bitString = (content: Buffer): Buffer => tlv(0x03, Buffer.concat([Buffer.from([0]), content]));
const bool = (v: boolean): Buffer => tlv(0x01, Buffer.from([v ? 0xff : 0]));
const utf8 = (s: string): Buffer => tlv(0x0c, Buffer.from(s, 'utf8'));

function integer(bytes: Buffer): Buffer {
  let b = bytes;
  while (b.length > 1 && b[0] === 0 && (b[1]! & 0x80) === 0) b = b.subarray(1);
  return tlv(0x02, (b[0]! & 0x80) !== 0 ? Buffer.concat([Buffer.from([0]), b]) : b);
}

function oid(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split('.').map(Number) as [number, number, ...number[]];
  const out = [40 * a + b];
  for (const n of rest) {
    const chunk: number[] = [n & 0x7f];
    for (let v = n >>> 7; v > 0; v >>>= 7) chunk.unshift(0x80 | (v & 0x7f));
    out.push(...chunk);
  }
  return tlv(0x06, Buffer.from(out));
}

/** UTCTime (dates before 2050), as RFC 5280 requires for them: YYMMDDHHMMSSZ. */
function utcTime(d: Date): Buffer {
  const p = (n: number) => String(n).padStart(2, '0');
  return tlv(0x17, Buffer.from(`${p(d.getUTCFullYear() % 100)}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}Z`, 'ascii'));
}

const extension = (id: string, critical: boolean, value: Buffer): Buffer => sequence(oid(id), ...(critical ? [bool(true)] : []), octetString(value));

// --------------------------------------------------------------------------------------------------------

/** A certificate for `hosts` (DNS names), valid from an hour ago for `days` days. */
export function selfSignedCertificate(hosts: readonly string[], opts: { commonName?: string; days?: number; now?: Date } = {}): SelfSignedCertificate {
  if (hosts.length === 0) throw new RangeError('a certificate needs at least one host name');
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const now = opts.now ?? new Date();
  const name = sequence(set(sequence(oid(OID.commonName), utf8(opts.commonName ?? hosts[0]!))));
  const algorithm = sequence(oid(OID.ecdsaWithSha256));
  const serial = randomBytes(16);
  serial[0] = serial[0]! & 0x7f;
  const tbs = sequence(
    explicit(0, integer(Buffer.from([2]))), // v3
    integer(serial),
    algorithm,
    name,
    sequence(utcTime(new Date(now.getTime() - 3_600_000)), utcTime(new Date(now.getTime() + (opts.days ?? 7) * 86_400_000))),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
    explicit(3, sequence(
      // Its own authority (it is the only certificate of its chain), for TLS servers, for these names only.
      extension(OID.basicConstraints, true, sequence(bool(true))),
      extension(OID.keyUsage, true, bitString(Buffer.from([0x84]))), // digitalSignature, keyCertSign
      extension(OID.extKeyUsage, false, sequence(oid(OID.serverAuth))),
      extension(OID.subjectAltName, false, sequence(...hosts.map((h) => tlv(0x82, Buffer.from(h, 'ascii'))))),
    )),
  );
  const der = sequence(tbs, algorithm, bitString(sign('sha256', tbs, privateKey)));
  const cert = `-----BEGIN CERTIFICATE-----\n${der.toString('base64').replace(/(.{64})/g, '$1\n').replace(/\n$/, '')}\n-----END CERTIFICATE-----\n`;
  const parsed = new X509Certificate(cert); // never hand out something a TLS stack would refuse to read
  if (!parsed.verify(publicKey)) throw new Error('the generated certificate does not verify with its own key');
  return { cert, key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), fingerprint256: parsed.fingerprint256 };
}
