// n and size rules hold for all three image operations ("same rules and defaults as above"), but the
// catalogue states them per operation, so each rule is a small family built from this table.

import { notExercised, type ResponseCheck, type Finding } from '../types.ts';
import { notAnImageResult } from './common.ts';
import { imageItems, itemBytes, sniffItem } from './image-bytes.ts';
import { requestedN, requestedSize, requestField } from './request.ts';

interface Operation {
  name: 'generation' | 'edit' | 'variation';
  count: readonly string[];
  size: readonly string[];
}

const OPERATIONS: readonly Operation[] = [
  { name: 'generation', count: ['IMG-GEN-N-DEFAULT', 'IMG-GEN-N-RANGE-ACCEPT'], size: ['IMG-GEN-SIZE-DEFAULT', 'IMG-GEN-SIZE-ACCEPT'] },
  { name: 'edit', count: ['IMG-EDIT-N'], size: ['IMG-EDIT-SIZE'] },
  { name: 'variation', count: ['IMG-VAR-N'], size: ['IMG-VAR-SIZE'] },
];

function countIsN(op: Operation): ResponseCheck {
  return {
    kind: 'response',
    name: `image_${op.name}_count_is_n`,
    requirements: op.count,
    severity: 'must',
    summary: `an image ${op.name} returns exactly n images (n defaults to 1)`,
    skipWhen: (ex, ctx) => notAnImageResult(ex) ?? (requestedN(ctx.request) === undefined ? 'the request has an n that is not a positive integer' : undefined),
    run: (ex, ctx) => {
      const n = requestedN(ctx.request)!;
      const data = (ex.response!.json as { data: unknown[] }).data;
      return data.length === n ? [] : [{ pointer: '/data', message: `n ${n} was requested${requestField(ctx.request, 'n') === undefined ? ' (the default)' : ''}, but data has ${data.length} item(s)`, expected: n, actual: data.length }];
    },
  };
}

function sizeMatches(op: Operation): ResponseCheck {
  return {
    kind: 'response',
    name: `image_${op.name}_size_matches`,
    requirements: op.size,
    severity: 'must',
    summary: `every image of an image ${op.name} has the requested size (default 1024x1024)`,
    skipWhen: (ex, ctx) => {
      const not = notAnImageResult(ex);
      if (not) return not;
      if (!requestedSize(ctx.request)) return 'the request has a size that is not WxH';
      const items = imageItems(ex.response!.json)!;
      if (items.length === 0) return 'data has no url or b64_json items';
      const got = items.map((item) => itemBytes(item, ex));
      if (!got.some((g) => g.available)) return `no image bytes to measure: ${got.map((g) => (g.available ? '' : g.reason)).find(Boolean)}`;
      return undefined;
    },
    run: (ex, ctx) => {
      const size = requestedSize(ctx.request)!;
      const findings: Finding[] = [];
      let unmeasured = 0;
      let measured = 0;
      for (const item of imageItems(ex.response!.json)!) {
        const got = itemBytes(item, ex);
        if (!got.available) continue; // reported by image_b64_decodes / image_url_fetchable
        measured++;
        const img = sniffItem(item, got.bytes, ex);
        // The output format is not stated (IMG-OUTPUT-PNG is a should): a format this reader does not know is unmeasured.
        if (!img.ok && img.unknown) { unmeasured++; continue; }
        if (!img.ok) {
          findings.push({ pointer: item.pointer, message: `the ${got.source} is not an image whose size can be read: ${img.error}`, expected: `an image of ${size.label}`, actual: `${got.bytes.length} bytes` });
        } else if (img.width !== size.width || img.height !== size.height) {
          findings.push({ pointer: item.pointer, message: `size ${size.label} was requested, but the ${got.source} is ${img.width}x${img.height}`, expected: size.label, actual: `${img.width}x${img.height}` });
        }
      }
      if (findings.length === 0 && measured > 0 && unmeasured === measured) return notExercised('the images are in a format whose size this harness cannot read (the output format is not stated)');
      return findings;
    },
  };
}

export const IMAGE_OPERATION_CHECKS: readonly ResponseCheck[] = OPERATIONS.flatMap((op) => [countIsN(op), sizeMatches(op)]);
