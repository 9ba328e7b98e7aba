// Every registered check, listed explicitly: the set of rules the harness knows is this file.

import { CheckRegistry } from './registry.ts';
import type { Check } from './types.ts';
import { STREAM_RULE_CHECKS } from './stream/sse-rules.ts';
import { ERROR_CONVENTION_CHECKS } from './errors/conventions.ts';
import { AUTH_CHECKS } from './auth/index.ts';
import { MODELS_CHECKS } from './models/index.ts';
import { ENGINES_CHECKS } from './engines/index.ts';
import { COMPLETIONS_CHECKS } from './completions/index.ts';
import { CHAT_CHECKS } from './chat/index.ts';
import { EDITS_CHECKS } from './edits/index.ts';
import { IMAGES_CHECKS } from './images/index.ts';
import { EMBEDDINGS_CHECKS } from './embeddings/index.ts';
import { AUDIO_CHECKS } from './audio/index.ts';
import { FILES_CHECKS } from './files/index.ts';
import { FINETUNES_CHECKS } from './fine-tunes/index.ts';
import { MODERATIONS_CHECKS } from './moderations/index.ts';
import { PLUGINS_CHECKS } from './plugins/index.ts';

export const ALL_CHECKS: readonly Check[] = [
  ...STREAM_RULE_CHECKS,
  ...ERROR_CONVENTION_CHECKS,
  ...AUTH_CHECKS,
  ...MODELS_CHECKS,
  ...ENGINES_CHECKS,
  ...COMPLETIONS_CHECKS,
  ...CHAT_CHECKS,
  ...EDITS_CHECKS,
  ...IMAGES_CHECKS,
  ...EMBEDDINGS_CHECKS,
  ...AUDIO_CHECKS,
  ...FILES_CHECKS,
  ...FINETUNES_CHECKS,
  ...MODERATIONS_CHECKS,
  ...PLUGINS_CHECKS,
];

let registry: CheckRegistry | undefined;
export function defaultRegistry(): CheckRegistry {
  registry ??= new CheckRegistry(ALL_CHECKS);
  return registry;
}
