// The stop rule over a stream: the text assembled per choice never contains a stop sequence. Constant memory:
// per choice only the last (longest stop − 1) characters are kept, enough to see a sequence split over chunks.

import { notExercised, type Finding, type StreamCheck } from '../types.ts';
import { isRecord } from '../../util/json-type.ts';
import { chunkChoices, given, requestJson, skipUnlessChunkStream, stopSequences } from './request.ts';

interface State { stops: string[]; keep: number; tails: Map<number, string>; reported: Set<number>; stoppedAtStop: boolean }

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
      return { stops, keep: Math.max(0, ...stops.map((s) => s.length)) - 1, tails: new Map(), reported: new Set(), stoppedAtStop: false };
    },
    event: (s, event, index): Finding[] => {
      const choices = chunkChoices(event);
      if (!choices) return [];
      const findings: Finding[] = [];
      for (const c of choices) {
        if (c.finish_reason === 'stop') s.stoppedAtStop = true;
        const text = textOf(c);
        // A chunk without index belongs to the one choice there is (the chunk shape is not shown).
        const choice = c.index === undefined ? 0 : c.index;
        if (typeof text !== 'string' || typeof choice !== 'number') continue;
        const joined = (s.tails.get(choice) ?? '') + text;
        const stop = s.stops.find((x) => joined.includes(x));
        if (stop !== undefined && !s.reported.has(choice)) {
          s.reported.add(choice);
          findings.push({ pointer: `#events/${index}`, message: `choice ${choice}: the streamed ${what} contains the stop sequence ${JSON.stringify(stop)}`, expected: `no ${JSON.stringify(stop)}`, actual: joined.slice(-120) });
        }
        s.tails.set(choice, s.keep > 0 ? joined.slice(-s.keep) : '');
      }
      return findings;
    },
    end: (s, end) => {
      if (s.tails.size === 0 && end === 'done') return [{ pointer: '', message: `no chunk carried ${what}`, expected: `${what} in choices[]`, actual: 'none' }];
      // A stream that never reached a stop sequence says nothing about whether the stop is honoured: a server that
      // ignores stop passes whenever the model happens not to produce it.
      if (end === 'done' && !s.stoppedAtStop) return notExercised('no choice finished at a stop sequence (finish_reason "stop"): the stop was never reached');
      return [];
    },
  };
}

export const completionStreamStopExcluded = streamStopExcluded('completion_stream_stop_excluded', 'COMP-STOP-EXCLUDED', 'must', (c) => c.text, 'text');
export const chatStreamStopExcluded = streamStopExcluded('chat_stream_stop_excluded', 'CHAT-STOP-EXCLUDED', 'should', (c) => (isRecord(c.delta) ? (c.delta.content ?? '') : undefined), 'message content');
