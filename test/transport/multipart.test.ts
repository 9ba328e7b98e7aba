import { describe, expect, it } from 'vitest';
import { boundaryFor, encodeMultipart } from '../../src/transport/multipart.ts';

describe('multipart', () => {
  it('round-trips fields and files through a form-data parser', async () => {
    const data = new Uint8Array(300).map((_, i) => (i * 7) % 256);
    const boundary = boundaryFor('case-1');
    const { body, contentType } = encodeMultipart(
      [
        { name: 'model', value: 'dall-e 😀' },
        { name: 'we"ird', value: 'line1\r\nline2' },
        { name: 'image', filename: 'in"put.png', contentType: 'image/png', data },
      ],
      boundary,
    );
    expect(contentType).toBe(`multipart/form-data; boundary=${boundary}`);
    const text = Buffer.from(body).toString('latin1');
    expect(text).toContain('name="we%22ird"');
    expect(text).toContain('filename="in%22put.png"');
    expect(text.endsWith(`--${boundary}--\r\n`)).toBe(true);
    const form = await new Response(body, { headers: { 'content-type': contentType } }).formData();
    expect(form.get('model')).toBe('dall-e 😀');
    expect(form.get('we%22ird') ?? form.get('we"ird')).toBe('line1\r\nline2');
    const file = form.get('image') as File;
    expect(file.type).toBe('image/png');
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(data);
  });

  it('is deterministic', () => {
    const parts = [{ name: 'a', value: 'b' }];
    expect(boundaryFor('x')).toBe(boundaryFor('x'));
    expect(boundaryFor('x')).not.toBe(boundaryFor('y'));
    expect(boundaryFor('x')).toMatch(/^----conformance-[0-9a-f]+$/);
    expect(encodeMultipart(parts, boundaryFor('s')).body).toEqual(encodeMultipart(parts, boundaryFor('s')).body);
  });

  it('refuses a boundary that occurs in the content', () => {
    const b = boundaryFor('z');
    expect(() => encodeMultipart([{ name: 'a', value: `x--${b}y` }], b)).toThrow(/occurs/);
  });
});
