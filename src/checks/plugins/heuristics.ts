// The judgement calls of the plugin rules, kept as data: each pattern names the rule it detects.
// They are heuristics (severity should): a match is a warning for a human to read, never a failure.

export type DescriptionRule = 'tone' | 'push' | 'triggers';

export interface DescriptionPattern {
  rule: DescriptionRule;
  /** What the pattern detects, in words (shown in the warning). */
  label: string;
  pattern: RegExp;
}

/** "plugin descriptions must not steer the model's tone, must not push the model to use the plugin when the user
 * did not ask for its kind of service, and must not define fixed triggers" (Plugin rules). */
export const DESCRIPTION_PATTERNS: readonly DescriptionPattern[] = [
  // steering the model's tone or personality
  { rule: 'tone', label: 'asks for a tone, voice or style of answer', pattern: /\b(respond|reply|answer|write|speak|talk)\b[^.!?]{0,40}\b(tone|voice|manner)\b/i },
  { rule: 'tone', label: 'asks for an "… tone"', pattern: /\bin an? [\w\s-]{0,30}\btone\b/i },
  { rule: 'tone', label: 'tells the model how to behave ("be friendly")', pattern: /\bbe (very |extremely |always |more )?(friendly|enthusiastic|cheerful|polite|funny|witty|humorous|playful|upbeat|positive|excited|empathetic|sarcastic)\b/i },
  { rule: 'tone', label: 'asks for an emotional manner of answering', pattern: /\b(respond|reply|answer)\s+(enthusiastically|cheerfully|excitedly|humorously|playfully|politely)\b/i },
  { rule: 'tone', label: 'prescribes how the answers feel ("responses are always friendly")', pattern: /\b(responses?|answers?|replies)\b[^.!?\n]{0,30}\b(are|is|be)\b[^.!?\n]{0,20}\b(engaging|friendly|cheerful|enthusiastic|fun|witty|upbeat|playful|empathetic|humorous)\b/i },
  { rule: 'tone', label: 'gives the model a personality or persona', pattern: /\b(your|a) (personality|persona)\b|\bact as an? [\w-]+ (assistant|persona|character)\b/i },
  // pushing use of the plugin when not asked
  { rule: 'push', label: 'tells the model to always use the plugin', pattern: /\balways (use|call|invoke|consult|query) (this|the|our) (plugin|tool|api|service)\b/i },
  // "whenever the user …" — but not "whenever a user asks/needs …": that is the user asking for the service
  // (seen in real manifests: plugins/017-store-wikipedia.json, plugins/029-retrieval-user_http.json).
  { rule: 'push', label: 'uses the plugin "whenever the user …"', pattern: /\bwhenever (the |a )?user\b(?![^.!?\n]{0,40}\b(asks?|requests?|wants?|needs?|mentions?|is looking|looks for|searches|inquires|wishes)\b)/i },
  { rule: 'push', label: 'uses the plugin for every message', pattern: /\b(for|on|in) (every|each|all|any) (single )?(user )?(message|question|query|request|conversation|prompt|turn)s?\b/i },
  { rule: 'push', label: 'uses the plugin even when the user did not ask', pattern: /\beven (when|if) (the user|they|users) (did not|didn't|does not|doesn't|do not|don't|has not|hasn't) (ask|request|mention)/i },
  { rule: 'push', label: 'uses the plugin proactively', pattern: /\b(proactively|unprompted|without being asked)\b/i },
  { rule: 'push', label: 'prefers the plugin over everything else', pattern: /\b(prefer|prioriti[sz]e) (this|the|our) (plugin|tool)\b|\buse this plugin (first|instead)\b/i },
  // fixed triggers
  { rule: 'triggers', label: 'defines a fixed trigger ("when the user says …")', pattern: /\b(when|if|whenever) (the )?user (says|types|writes|enters|sends)\b/i },
  { rule: 'triggers', label: 'defines trigger words', pattern: /\btrigger (word|phrase|keyword|command)s?\b|\b(magic|wake|activation) (word|phrase)s?\b/i },
];

export interface DescriptionMatch {
  rule: DescriptionRule;
  label: string;
  /** The matched text with a little context. */
  excerpt: string;
  index: number;
}

export function matchDescription(text: string, rule: DescriptionRule): DescriptionMatch[] {
  const out: DescriptionMatch[] = [];
  for (const p of DESCRIPTION_PATTERNS) {
    if (p.rule !== rule) continue;
    const m = p.pattern.exec(text);
    if (!m) continue;
    const start = Math.max(0, m.index - 20);
    const end = Math.min(text.length, m.index + m[0].length + 20);
    out.push({ rule, label: p.label, index: m.index, excerpt: `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}` });
  }
  return out;
}

/** The recommended start of description_for_model. */
export const PLUGIN_FOR = /^\s*plugin for\b/i;

// ------------------------------------------------------------------ raw data vs prose (plugin responses)

/** Media types that carry data, not prose. */
export const RAW_MEDIA_TYPES: readonly RegExp[] = [
  /^application\/([\w.-]+\+)?json\b/i,
  /^application\/([\w.-]+\+)?xml\b/i,
  /^text\/xml\b/i,
  /^text\/csv\b/i,
  /^text\/tab-separated-values\b/i,
  /^application\/(x-)?yaml\b/i,
  /^text\/(x-)?yaml\b/i,
  /^application\/x-ndjson\b/i,
  /^application\/octet-stream\b/i,
  /^(image|audio|video)\//i,
];

export interface ProseSignal {
  label: string;
  /** True when the text shows this sign of natural-language prose. */
  test: (text: string) => boolean;
}

/** A text body is judged prose when every signal holds. */
export const PROSE_SIGNALS: readonly ProseSignal[] = [
  { label: 'at least 5 words', test: (t) => (t.match(/[A-Za-z\u00C0-\u024F]{2,}/g)?.length ?? 0) >= 5 },
  { label: 'ends a sentence (. ! ?)', test: (t) => /[a-z)"'”\]][.!?](\s|$)/i.test(t) },
  { label: 'mostly letters and spaces, few brackets or delimiters', test: (t) => (t.match(/[{}[\]<>|\t=]/g)?.length ?? 0) * 20 < t.length },
];

export function looksLikeProse(text: string): boolean {
  const t = text.trim();
  if (t === '') return false;
  try {
    JSON.parse(t);
    return false;
  } catch {
    // not JSON
  }
  return PROSE_SIGNALS.every((s) => s.test(t));
}
