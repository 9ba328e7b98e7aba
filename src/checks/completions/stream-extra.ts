// Further stream rules (Events 1): tokens are sent "as they become available" (several events);
// chat deltas assemble into assistant messages (convention, Events 5). That the body ends right after
// data: [DONE] is sse_nothing_after_done's rule (src/checks/stream/sse-rules.ts).

import type { Finding, StreamCheck } from '../types.ts';
import { isRecord } from '../../util/json-type.ts';
import { chunkChoices, isDone, skipUnlessChunkStream } from './request.ts';

/** STREAM-AS-AVAILABLE (should): a stream of more than one token arrives as several data events. */
export const streamSeveralEvents: StreamCheck<{ chunks: number }> = {
  kind: 'stream',
  name: 'stream_several_events',
  requirements: ['STREAM-AS-AVAILABLE'],
  severity: 'should',
  summary: 'tokens are sent as they become available: several data events before [DONE]',
  start: () => ({ chunks: 0 }),
  event: (s, event) => {
    if (!isDone(event)) s.chunks++;
  },
  end: (s, end): Finding[] => (end === 'done' && s.chunks < 2 ? [{ pointer: '', message: 'the whole answer came in one event; tokens should be sent as they become available', expected: '≥ 2 events before [DONE]', actual: s.chunks }] : []),
};

interface DeltaState { contentChars: Map<number, number>; roles: Map<number, string>; findings: number }

/** STREAM-CHAT-DELTAS-ASSEMBLE (should): per index the deltas carry string content; the role is assistant. */
export const chatStreamDeltasAssemble: StreamCheck<DeltaState> = {
  kind: 'stream',
  name: 'chat_stream_deltas_assemble',
  requirements: ['STREAM-CHAT-DELTAS-ASSEMBLE'],
  severity: 'should',
  summary: 'chat deltas assemble per choice into an assistant message (string content, role assistant)',
  skipWhen: (ex) => skipUnlessChunkStream(ex),
  start: () => ({ contentChars: new Map(), roles: new Map(), findings: 0 }),
  event: (s, event, index): Finding[] => {
    const choices = chunkChoices(event);
    if (!choices) return [];
    const out: Finding[] = [];
    choices.forEach((c, j) => {
      const i = typeof c.index === 'number' ? c.index : -1;
      const delta = c.delta;
      if (!isRecord(delta)) {
        if (s.findings++ < 5) out.push({ pointer: `#events/${index}/choices/${j}/delta`, message: 'a chat chunk choice carries no delta object', expected: 'an object', actual: delta ?? 'absent' });
        return;
      }
      if (delta.content !== undefined && delta.content !== null && typeof delta.content !== 'string') {
        if (s.findings++ < 5) out.push({ pointer: `#events/${index}/choices/${j}/delta/content`, message: 'delta content is not a string', expected: 'a string', actual: delta.content });
      } else if (typeof delta.content === 'string') s.contentChars.set(i, (s.contentChars.get(i) ?? 0) + delta.content.length);
      if (delta.role !== undefined) {
        if (delta.role !== 'assistant' && s.findings++ < 5) out.push({ pointer: `#events/${index}/choices/${j}/delta/role`, message: 'the streamed message role is not assistant', expected: 'assistant', actual: delta.role });
        s.roles.set(i, String(delta.role));
      }
    });
    return out;
  },
  end: (s, end): Finding[] => {
    if (end !== 'done') return [];
    if (s.contentChars.size === 0 && s.roles.size === 0) return [{ pointer: '', message: 'no delta carried a role or content', expected: 'message deltas', actual: 'none' }];
    const noRole = [...s.contentChars.keys()].filter((i) => !s.roles.has(i));
    return noRole.length ? [{ pointer: '', message: `choice ${noRole.join(', ')}: no delta named the role of the assembled message`, expected: 'a delta with role assistant', actual: 'none' }] : [];
  },
};

/**
 * STREAM-CHUNK-SHAPE (should): the service ends each streamed chat choice with a chunk carrying its
 * finish_reason (every recorded chat stream does: an empty delta plus finish_reason). Chunk shapes are
 * "not shown" by the spec, so this is a convention.
 */
export const chatStreamChoicesFinish: StreamCheck<{ seen: Set<number>; finished: Set<number> }> = {
  kind: 'stream',
  name: 'chat_stream_choices_finish',
  requirements: ['STREAM-CHUNK-SHAPE'],
  severity: 'should',
  summary: 'each streamed chat choice ends with a chunk carrying its finish_reason (the service convention)',
  skipWhen: (ex) => skipUnlessChunkStream(ex),
  start: () => ({ seen: new Set(), finished: new Set() }),
  event: (s, event) => {
    for (const c of chunkChoices(event) ?? []) {
      if (typeof c.index !== 'number') continue;
      s.seen.add(c.index);
      if (typeof c.finish_reason === 'string' && c.finish_reason !== '') s.finished.add(c.index);
    }
  },
  end: (s, end): Finding[] => {
    if (end !== 'done') return [];
    const open = [...s.seen].filter((i) => !s.finished.has(i)).sort((a, b) => a - b);
    return open.length ? [{ pointer: '', message: `choice ${open.join(', ')} never received a finish_reason before [DONE]`, expected: 'a final chunk with finish_reason per choice', actual: 'none' }] : [];
  },
};
