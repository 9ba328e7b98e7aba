// Reference-server faults of the media areas (images, embeddings, audio, moderations) → the
// requirement IDs the media suites must fail on. Each verified with
// `npx conformance run --suite <suite> --fault <name>` (exit 1, a failed must-check citing one of the
// IDs) and the clean run (exit 0).

export const EXPECTED: Record<string, { suites: string[]; requirements: string[] }> = {
  // images
  'image-n-11-accepted': { suites: ['images'], requirements: ['IMG-GEN-N-RANGE-REJECT', 'IMG-EDIT-N', 'IMG-VAR-N'] },
  'image-size-ignored': { suites: ['images'], requirements: ['IMG-GEN-SIZE-ACCEPT', 'IMG-GEN-SIZE-DEFAULT', 'IMG-EDIT-SIZE', 'IMG-VAR-SIZE'] },
  'b64-json-returns-url': { suites: ['images'], requirements: ['RES-IMAGE-ITEM-MATCHES-FORMAT'] },
  'image-edit-accepts-non-square': { suites: ['images'], requirements: ['IMG-EDIT-IMAGE-SQUARE', 'IMG-VAR-IMAGE-SQUARE'] },
  'image-prompt-1001-accepted': { suites: ['images'], requirements: ['IMG-GEN-PROMPT-MAX1000', 'IMG-EDIT-PROMPT-MAX1000'] },
  'image-edit-opaque-without-mask': { suites: ['images'], requirements: ['IMG-EDIT-TRANSPARENCY-NO-MASK'] },
  // embeddings
  'embeddings-1535-dims': { suites: ['embeddings'], requirements: ['EMB-ADA-1536'] },
  'embeddings-reversed-order': { suites: ['embeddings'], requirements: ['EMB-ONE-PER-INPUT'] },
  'embeddings-input-too-long-accepted': { suites: ['embeddings'], requirements: ['EMB-INPUT-MAX-8192'] },
  'embeddings-index-from-one': { suites: ['embeddings'], requirements: ['EMB-ONE-PER-INPUT'] },
  // audio
  'audio-temperature-1.5-accepted': { suites: ['audio'], requirements: ['AUDIO-TEMPERATURE-RANGE-REJECT'] },
  'srt-malformed-timestamps': { suites: ['audio'], requirements: ['AUDIO-FORMAT-SRT'] },
  'whisper-2-accepted': { suites: ['audio'], requirements: ['AUDIO-MODEL-WHISPER-ONLY'] },
  'audio-wav-only': { suites: ['audio'], requirements: ['AUDIO-FILE-TYPES'] },
  'audio-any-extension-accepted': { suites: ['audio'], requirements: ['AUDIO-FILE-TYPE-REJECT'] },
  'vtt-missing-header': { suites: ['audio'], requirements: ['AUDIO-FORMAT-VTT'] },
  // moderations
  'moderation-6-categories': { suites: ['moderations'], requirements: ['MOD-CATEGORIES-EXACT', 'MOD-SCORES-EXACT'] },
  'moderation-score-above-1': { suites: ['moderations'], requirements: ['MOD-SCORES-RANGE', 'RES-MODERATION'] },
  'moderation-array-first-only': { suites: ['moderations'], requirements: ['MOD-INPUT-ARRAY'] },
  'moderation-any-model-accepted': { suites: ['moderations'], requirements: ['MOD-MODEL-OTHER-REJECTED'] },
};

/**
 * verbose_json gives "the corresponding format" (must: a JSON object with text); task, language,
 * duration and segments are the service's convention (AUDIO-VERBOSE-JSON-FIELDS, should): a body without
 * segments warns, it never fails the run.
 */
export const WARNED: Record<string, { suites: string[]; requirements: string[] }> = {
  'verbose-json-missing-segments': { suites: ['audio'], requirements: ['AUDIO-VERBOSE-JSON-FIELDS'] },
  // A stricter or an inferred reading of the spec (catalogue: should): the run warns and still passes.
  'image-item-both-fields': { suites: ['images'], requirements: ['RES-IMAGE-ITEM-ONE-FORMAT'] },
  'moderation-flagged-inconsistent': { suites: ['moderations'], requirements: ['MOD-FLAGGED-CONSISTENT'] },
};
