// The CLI bundle loads node:http2 only when something uses more of it than the constants undici reads at load
// (src/build/bundle.ts): the stand-in must answer as the built-in does, and load it only on such a use.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { lazyBuiltin } from '../../src/build/bundle.ts';

/** The module the bundle gets for `require('node:http2')`, evaluated as esbuild's CommonJS wrapper would. */
function loadStandIn(): { exports: Record<string, unknown>; loaded: () => boolean } {
  let loads = 0;
  const fakeProcess = { getBuiltinModule: (name: string) => { loads++; return createRequire(import.meta.url)(name) as unknown; } };
  const module = { exports: {} as Record<string, unknown> };
  new Function('module', 'process', lazyBuiltin('node:http2', ['constants']))(module, fakeProcess);
  return { exports: module.exports, loaded: () => loads > 0 };
}

describe('a lazily loaded built-in (node:http2 in the CLI bundle)', () => {
  const real = createRequire(import.meta.url)('node:http2') as typeof import('node:http2');

  it('gives the constants undici reads at load without loading the module', () => {
    const { exports, loaded } = loadStandIn();
    const { HTTP2_HEADER_AUTHORITY, HTTP2_HEADER_STATUS, NGHTTP2_REFUSED_STREAM, NGHTTP2_CANCEL } = exports.constants as typeof real.constants;
    expect([HTTP2_HEADER_AUTHORITY, HTTP2_HEADER_STATUS, NGHTTP2_REFUSED_STREAM, NGHTTP2_CANCEL]).toEqual([
      real.constants.HTTP2_HEADER_AUTHORITY, real.constants.HTTP2_HEADER_STATUS, real.constants.NGHTTP2_REFUSED_STREAM, real.constants.NGHTTP2_CANCEL,
    ]);
    expect(exports.constants).toEqual({ ...real.constants });
    expect(loaded()).toBe(false);
  });

  it('answers everything else from the real module, loaded on first use', () => {
    const { exports, loaded } = loadStandIn();
    expect(exports.connect).toBe(real.connect);
    expect(loaded()).toBe(true);
    expect('createServer' in exports).toBe(true);
    expect(Object.keys(exports).sort()).toEqual(Object.keys(real).sort());
    expect(Object.getOwnPropertyDescriptor(exports, 'connect')?.value).toBe(real.connect);
  });
});
