// What every fuzz property of an endpoint builds on: the endpoint's own base request (no parameter changed) is
// accepted with a valid answer. A property is only evidence when its baseline holds:
//   - a target that rejects the base request would "pass" every reject property (everything is a 4xx) and
//     fail every accept property, all for one reason: those properties are blocked by the baseline;
//   - a target whose answer has the wrong shape fails every accept property for that one shape: accept
//     properties are blocked, and the baseline's failure cites the body's rule, not a range rule.

import type { EndpointId } from './limits.ts';

export interface Baseline {
  /** The rule that the endpoint exists and answers a valid request (cited when the base request is refused). */
  operation: string;
  /** The rule of the answer's body (cited when the body's shape is what failed). */
  resource: string;
}

export const BASELINES: Readonly<Record<EndpointId, Baseline>> = {
  completions: { operation: 'COMP-CREATE', resource: 'RES-COMPLETION' },
  chat: { operation: 'CHAT-CREATE', resource: 'RES-CHAT' },
  edits: { operation: 'EDIT-CREATE', resource: 'RES-EDIT' },
  'images.generations': { operation: 'IMG-GEN-CREATE', resource: 'RES-IMAGE' },
  'images.edits': { operation: 'IMG-EDIT-CREATE', resource: 'RES-IMAGE' },
  'images.variations': { operation: 'IMG-VAR-CREATE', resource: 'RES-IMAGE' },
  embeddings: { operation: 'EMB-CREATE', resource: 'RES-EMBEDDING' },
  'audio.transcriptions': { operation: 'AUDIO-TRANSCRIBE-CREATE', resource: 'RES-TRANSCRIPTION-JSON' },
  'audio.translations': { operation: 'AUDIO-TRANSLATE-CREATE', resource: 'RES-TRANSCRIPTION-JSON' },
  files: { operation: 'FILE-UPLOAD', resource: 'RES-FILE' },
  'fine-tunes': { operation: 'FT-CREATE', resource: 'RES-FT-JOB' },
  moderations: { operation: 'MOD-CREATE', resource: 'RES-MODERATION' },
};
