// Streams of create completion / create chat completion (Events 1): tokens or message deltas arrive as
// data-only events. Whatever the chunking, every choice the request asks for (n per prompt) must arrive, under
// its index — and no other index. State: one set of seen indices (O(choices)); events are never stored.

import type { Finding, StreamCheck } from '../types.ts';
import type { CheckContext } from '../types.ts';
import { chunkChoices, intField, promptCount, requestJson, skipUnlessChunkStream } from './request.ts';

interface State { k: number | undefined; seen: Set<number>; bad: number }

function streamChoicesComplete(name: string, requirements: string[], expected: (ctx: CheckContext) => number | undefined, what: string): StreamCheck<State> {
  return {
    kind: 'stream',
    name,
    requirements,
    severity: 'must',
    summary: `the stream delivers ${what}, each under its index 0..k-1`,
    skipWhen: (ex, ctx) => (expected(ctx) === undefined ? 'the request\'s n or prompt is not of a form the spec defines' : skipUnlessChunkStream(ex)),
    start: (ctx) => ({ k: expected(ctx), seen: new Set<number>(), bad: 0 }),
    event: (s, event, index): Finding[] => {
      const choices = chunkChoices(event);
      if (!choices || s.k === undefined) return [];
      const findings: Finding[] = [];
      choices.forEach((c, j) => {
        // The chunk shape is not shown (Events 5): a stream of one choice need not say which one it is.
        const i = c.index === undefined && s.k === 1 ? 0 : c.index;
        if (typeof i !== 'number' || !Number.isInteger(i) || i < 0 || i >= s.k!) {
          if (s.bad++ < 5) findings.push({ pointer: `#events/${index}/choices/${j}/index`, message: `chunk choice index ${JSON.stringify(i)} is outside 0..${s.k! - 1}`, expected: `0..${s.k! - 1}`, actual: i ?? 'absent' });
          return;
        }
        s.seen.add(i);
      });
      return findings;
    },
    end: (s, end): Finding[] => {
      if (s.k === undefined || end === 'timeout' || end === 'error') return [];
      const missing = Array.from({ length: s.k }, (_, i) => i).filter((i) => !s.seen.has(i));
      return missing.length === 0 ? [] : [{ pointer: '', message: `the stream delivered nothing for choice index ${missing.slice(0, 10).join(', ')}${missing.length > 10 ? ', …' : ''}`, expected: `indices 0..${s.k - 1}`, actual: [...s.seen].sort((a, b) => a - b) }];
    },
  };
}

export const completionStreamChoicesComplete = streamChoicesComplete(
  'completion_stream_choices_complete',
  ['STREAM-COMP-SSE', 'COMP-N-CHOICES', 'COMP-PROMPT-STRING-ARRAY'],
  (ctx) => {
    const json = requestJson(ctx);
    const n = intField(json, 'n', 1);
    const p = promptCount(json.prompt);
    return n === undefined || p === undefined ? undefined : n * p;
  },
  'n completions per prompt',
);

export const chatStreamChoicesComplete = streamChoicesComplete(
  'chat_stream_choices_complete',
  ['STREAM-CHAT-SSE', 'CHAT-N-CHOICES'],
  (ctx) => intField(requestJson(ctx), 'n', 1),
  'n choices',
);
