// Log-probability objects for completions: one entry per token of the returned text.
import { DEFAULT_WORDS } from './generator.ts';
import { seededRandom } from './random.ts';

export interface Logprobs {
  tokens: string[];
  token_logprobs: (number | null)[];
  top_logprobs: (Record<string, number> | null)[];
  text_offset: number[];
}

export interface LogprobsRequest {
  /** Tokens of the prompt when echo is on (their first entry has no logprob, as on the real service). */
  echoedPromptTokens: readonly string[];
  completionTokens: readonly string[];
  /** Requested `logprobs` (0..5). The map holds the sampled token plus logprobs-1 alternatives (>= 1 entry). */
  top: number;
  /** Offset of the first completion token in prompt+completion text (= prompt length without echo). */
  completionOffset: number;
  /** Words used as alternative candidates. */
  candidates: readonly string[];
  seed: number;
  /** Fault: this many additional entries per map. */
  extraEntries: number;
  /** Fault: every value is 0, as from a server that never computes them. */
  placeholder: boolean;
}

const round = (x: number) => Math.round(x * 1e6) / 1e6;

export function buildLogprobs(req: LogprobsRequest): Logprobs {
  const rng = seededRandom(req.seed);
  const out: Logprobs = { tokens: [], token_logprobs: [], top_logprobs: [], text_offset: [] };
  const pool = candidatePool(req.candidates);
  let offset = req.echoedPromptTokens.length > 0 ? 0 : req.completionOffset;
  const all = [...req.echoedPromptTokens, ...req.completionTokens];
  all.forEach((token, position) => {
    out.tokens.push(token);
    out.text_offset.push(offset);
    offset += token.length;
    if (position === 0 && req.echoedPromptTokens.length > 0) {
      // The first prompt token has no context to be predicted from.
      out.token_logprobs.push(null);
      out.top_logprobs.push(null);
      return;
    }
    // A distribution: the sampled token holds 50-95 % of the mass, each alternative a share of what is left,
    // so the probabilities of a map never add up to more than 1.
    const p = 0.5 + rng() * 0.45;
    const sampled = req.placeholder ? 0 : round(Math.log(p));
    out.token_logprobs.push(sampled);
    out.top_logprobs.push(topMap(token, { p, placeholder: req.placeholder }, Math.max(1, req.top) + req.extraEntries, pool, rng));
  });
  return out;
}

function candidatePool(words: readonly string[]): string[] {
  const pool = new Set<string>();
  for (const w of [...words, ...DEFAULT_WORDS]) pool.add(' ' + w);
  for (let i = 0; pool.size < 16; i++) pool.add(` alt${i}`);
  return [...pool];
}

function topMap(token: string, sampled: { p: number; placeholder: boolean }, entries: number, pool: readonly string[], rng: () => number): Record<string, number> {
  const map: Record<string, number> = { [token]: sampled.placeholder ? 0 : round(Math.log(sampled.p)) };
  let left = 1 - sampled.p;
  for (const candidate of pool) {
    if (Object.keys(map).length >= entries) break;
    if (candidate in map) continue;
    const share = left * (0.3 + rng() * 0.4);
    left -= share;
    map[candidate] = sampled.placeholder ? 0 : round(Math.log(share));
  }
  return map;
}

/** Slice of a choice's logprobs for tokens [from, to) — used by streamed chunks. */
export function sliceLogprobs(lp: Logprobs, from: number, to: number): Logprobs {
  return {
    tokens: lp.tokens.slice(from, to),
    token_logprobs: lp.token_logprobs.slice(from, to),
    top_logprobs: lp.top_logprobs.slice(from, to),
    text_offset: lp.text_offset.slice(from, to),
  };
}
