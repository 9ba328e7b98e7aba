// The UTF-8 byte-order mark (EF BB BF): decoders drop it silently, so whoever must know it was there looks at the bytes.

export function startsWithUtf8Bom(bytes: Uint8Array): boolean {
  return bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
}
