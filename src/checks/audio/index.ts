// Checks of the audio area, registered in checks/index.ts.

import type { Check } from '../types.ts';
import { audioContentType, audioJsonHasText, audioSrtWellFormed, audioTextFormat, audioVerboseJsonFields, audioVttWellFormed } from './formats.ts';
import { audioInvalidLanguageRejected, audioTranslationLanguageEnglish } from './language.ts';

export const AUDIO_CHECKS: readonly Check[] = [
  audioJsonHasText,
  audioVerboseJsonFields,
  audioTextFormat,
  audioSrtWellFormed,
  audioVttWellFormed,
  audioContentType,
  audioInvalidLanguageRejected,
  audioTranslationLanguageEnglish,
];
