// Deterministic text generation. Rules (documented in README, relied upon by suites):
//  * The source words are the word tokens of the prompt (letters/digits runs), in order; a prompt without
//    words (omitted prompt, punctuation only) uses DEFAULT_WORDS.
//  * Completions repeat the source words in order, cycling, one token per word: " w1 w2 w3 w1 ...",
//    until max_tokens (finish_reason "length") or until the text contains a stop sequence
//    (text cut before it, finish_reason "stop").
//  * Chat replies say the words of the last user message once ("w1 w2 w3", no leading space) and stop
//    naturally (finish_reason "stop") unless max_tokens or a stop sequence ends them first.
import { tokenize, wordOf } from './tokenizer.ts';

export const DEFAULT_WORDS = ['the', 'model', 'writes', 'a', 'new', 'document'] as const;

export type FinishReason = 'stop' | 'length';

export interface Generation {
  /** Final text (stop sequence excluded unless a fault says otherwise). */
  text: string;
  finishReason: FinishReason;
  /** Tokens the model produced, including the one that completed a stop sequence. */
  generatedTokens: number;
}

export interface GenerationRequest {
  words: readonly string[];
  maxTokens: number;
  stops: readonly string[];
  /** Chat: stop naturally after one pass over the words. */
  naturalLength?: number;
  /** Chat: the first word has no leading space. */
  noLeadingSpace?: boolean;
  /** Fault switch: keep the stop sequence in the returned text. */
  keepStopSequence?: boolean;
}

export function sourceWords(text: string): string[] {
  const words: string[] = [];
  for (const token of tokenize(text)) {
    const w = wordOf(token);
    if (w !== undefined) words.push(w);
  }
  return words.length > 0 ? words : [...DEFAULT_WORDS];
}

export function generate(req: GenerationRequest): Generation {
  const limit = Math.min(req.maxTokens, req.naturalLength ?? Number.POSITIVE_INFINITY);
  const longestStop = req.stops.reduce((n, s) => Math.max(n, s.length), 0);
  let text = '';
  for (let i = 0; i < limit; i++) {
    const token = (i === 0 && req.noLeadingSpace ? '' : ' ') + req.words[i % req.words.length];
    const searchFrom = Math.max(0, text.length - longestStop);
    text += token;
    const cut = firstStop(text, req.stops, searchFrom);
    if (cut) {
      const end = req.keepStopSequence ? cut.index + cut.stop.length : cut.index;
      return { text: text.slice(0, end), finishReason: 'stop', generatedTokens: i + 1 };
    }
  }
  const endedNaturally = req.naturalLength !== undefined && req.naturalLength <= req.maxTokens;
  const finishReason: FinishReason = endedNaturally ? 'stop' : 'length';
  return { text, finishReason, generatedTokens: limit };
}

function firstStop(text: string, stops: readonly string[], from: number): { index: number; stop: string } | undefined {
  let best: { index: number; stop: string } | undefined;
  for (const stop of stops) {
    const index = text.indexOf(stop, from);
    if (index >= 0 && (!best || index < best.index)) best = { index, stop };
  }
  return best;
}
