// The stop rule over a stream: the text assembled per choice never contains a stop sequence. Constant memory:
// per choice only the last (longest stop − 1) characters are kept, enough to see a sequence split over chunks.

import type { Finding, StreamCheck } from '../types.ts';
import { isRecord } from '../../util/json-type.ts';
import { chunkChoices, given, requestJson, skipUnlessChunkStream, stopSequences } from './request.ts';

interface State { stops: string[]; keep: number; tails: Map<number, string>; reported: Set<number> }

function streamStopExcluded(name: string, requirement: string, severity: 'must' | 'should', textOf: (choice: Record<string, unknown>) => unknown, what: string): StreamCheck<State> {
  return {
    kind: 'stream',
    name,
    requirements: [requirement],
    severity,
    summary: `no stop sequence occurs in the streamed ${what} of any choice`,
    skipWhen: (ex, ctx) => {
      const json = requestJson(ctx);
      if (stopSequences(json).length === 0) return 'the request has no stop sequence';
      if (given(json, 'echo') === true) return 'echo: the streamed prompt may itself contain a stop sequence';
      return skipUnlessChunkStream(ex);
    },
    start: (ctx) => {
      const stops = stopSequences(requestJson(ctx));
      return { stops, keep: Math.max(0, ...stops.map((s) => s.length)) - 1, tails: new Map(), reported: new Set() };
    },
    event: (s, event, index): Finding[] => {
      const choices = chunkChoices(event);
      if (!choices) return [];
      const findings: Finding[] = [];
      for (const c of choices) {
        const text = textOf(c);
        if (typeof text !== 'string' || typeof c.index !== 'number') continue;
        const joined = (s.tails.get(c.index) ?? '') + text;
        const stop = s.stops.find((x) => joined.includes(x));
        if (stop !== undefined && !s.reported.has(c.index)) {
          s.reported.add(c.index);
          findings.push({ pointer: `#events/${index}`, message: `choice ${c.index}: the streamed ${what} contains the stop sequence ${JSON.stringify(stop)}`, expected: `no ${JSON.stringify(stop)}`, actual: joined.slice(-120) });
        }
        s.tails.set(c.index, s.keep > 0 ? joined.slice(-s.keep) : '');
      }
      return findings;
    },
    end: (s, end): Finding[] => (s.tails.size === 0 && end === 'done' ? [{ pointer: '', message: `no chunk carried ${what}`, expected: `${what} in choices[]`, actual: 'none' }] : []),
  };
}

export const completionStreamStopExcluded = streamStopExcluded('completion_stream_stop_excluded', 'COMP-STOP-EXCLUDED', 'must', (c) => c.text, 'text');
export const chatStreamStopExcluded = streamStopExcluded('chat_stream_stop_excluded', 'CHAT-STOP-EXCLUDED', 'should', (c) => (isRecord(c.delta) ? (c.delta.content ?? '') : undefined), 'message content');
