// Audio: language (optional; ISO-639-1 code). What happens to other values is not stated, so their
// rejection is a should (AUDIO-LANGUAGE-INVALID) and is checked here, not with `expect.status`.

import type { ResponseCheck } from '../types.ts';

export const audioInvalidLanguageRejected: ResponseCheck = {
  kind: 'response',
  name: 'audio_invalid_language_rejected',
  // Judges the status itself (a refusal), so it applies to an answer of any class.
  appliesTo: 'any',
  requirements: ['AUDIO-LANGUAGE-INVALID'],
  severity: 'should',
  summary: 'a language that is not an ISO-639-1 code is rejected with a 4xx',
  run: (ex, ctx) => {
    const status = ex.response?.status;
    const language = ctx.request.multipartFields?.language;
    return status !== undefined && status >= 400 && status < 500
      ? []
      : [{ pointer: '', message: `language ${JSON.stringify(language)} is not an ISO-639-1 code, yet it was not rejected`, expected: '4xx', actual: status ?? 'no response' }];
  },
};

/**
 * AUDIO-TRANSLATE-ENGLISH (should): "output is English". Free text cannot be told English reliably, but a
 * verbose_json translation names its language: when it does, that language is English ("english" as
 * the service writes it, or the ISO code "en").
 */
export const audioTranslationLanguageEnglish: ResponseCheck = {
  kind: 'response',
  name: 'audio_translation_language_english',
  requirements: ['AUDIO-TRANSLATE-ENGLISH'],
  severity: 'should',
  summary: 'a translation is English: verbose_json names its language as English',
  skipWhen: (ex) => {
    const json = ex.response?.json;
    if (json === null || typeof json !== 'object' || Array.isArray(json)) return 'not a JSON object (only verbose_json names the language)';
    return typeof (json as Record<string, unknown>).language === 'string' ? undefined : 'the response names no language';
  },
  run: (ex) => {
    const language = String((ex.response!.json as Record<string, unknown>).language);
    return /^(english|en)$/i.test(language) ? [] : [{ pointer: '/language', message: 'a translation\'s output is English', expected: 'english (or en)', actual: language }];
  },
};
