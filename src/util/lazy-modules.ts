// Packages that only some runs need, loaded synchronously on first use (Node's require, which also loads ES
// modules): the full YAML parser (small suites, error positions, plugin documents), JSONPath (inline
// assertions) and the PNG codec (image fixtures); and node:zlib, for compressed bodies, PNG fixtures and
// compressed recordings, which most runs never meet. A run that needs none of them starts without their cost.

import { createRequire } from 'node:module';
import type * as YamlLib from 'yaml';
import type * as JsonPathLib from 'jsonpath-rfc9535';
import type * as PngLib from 'pngjs';

const load = createRequire(import.meta.url);

function once<T>(name: string): () => T {
  let module: T | undefined;
  return () => (module ??= load(name) as T);
}

export const yamlLib = once<typeof YamlLib>('yaml');
export const jsonPathLib = once<typeof JsonPathLib>('jsonpath-rfc9535');
export const pngLib = once<typeof PngLib>('pngjs');
/** node:zlib (~2 ms to load on its own): when a compressed body, a PNG or a compressed recording first needs it. */
export const zlibModule = (): typeof import('node:zlib') => process.getBuiltinModule('node:zlib');
