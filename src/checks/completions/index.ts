// Checks of the completions area (and the general/error/stream rules the text suites exercise),
// registered in checks/index.ts.

import type { Check } from '../types.ts';
import { usageTotalIsSum } from '../common/usage.ts';
import { completionChoicesPerPrompt } from './choices-per-prompt.ts';
import { chatNDistinct, completionNDistinct } from './n-distinct.ts';
import { completionLogprobsWithinMaxTokens, completionMaxTokensBound, completionMaxTokensCalibrated } from './max-tokens-bound.ts';
import { completionLogprobsAligned, completionLogprobsAreProbabilities, completionLogprobsComputed, completionLogprobsOffsets, completionLogprobsNullByDefault, completionLogprobsPresent, completionTopLogprobsCount } from './logprobs.ts';
import { completionStopCalibrated, completionStopExcluded } from './stop-excluded.ts';
import { completionFinishReasonKnown, completionFinishReasonMeaning } from './finish-reason.ts';
import { completionEchoDefaultOff, completionEchoPromptFirst, completionSuffixNotReturned } from './echo.ts';
import { completionModelNamed } from './model-named.ts';
import { errorCodeSnakeCase, timestampsAreIntegers, timestampsPlausible, wrongTypeRejected } from './general.ts';
import { chatStreamChoicesComplete, completionStreamChoicesComplete } from './stream-choices.ts';
import { chatStreamStopExcluded, completionStreamStopExcluded } from './stream-stop-excluded.ts';
import { chatStreamChoicesFinish, chatStreamDeltasAssemble, streamSeveralEvents } from './stream-extra.ts';

export const completionUsageTotalIsSum = usageTotalIsSum('completion_usage_total_is_sum', 'COMP-USAGE-TOTAL-SUM');

export const COMPLETIONS_CHECKS: readonly Check[] = [
  completionUsageTotalIsSum,
  completionChoicesPerPrompt,
  completionMaxTokensBound,
  completionMaxTokensCalibrated,
  completionNDistinct,
  chatNDistinct,
  completionLogprobsWithinMaxTokens,
  completionLogprobsNullByDefault,
  completionLogprobsPresent,
  completionLogprobsAligned,
  completionLogprobsOffsets,
  completionTopLogprobsCount,
  completionLogprobsComputed,
  completionLogprobsAreProbabilities,
  completionStopExcluded,
  completionStopCalibrated,
  completionFinishReasonKnown,
  completionFinishReasonMeaning,
  completionEchoPromptFirst,
  completionSuffixNotReturned,
  completionEchoDefaultOff,
  completionModelNamed,
  timestampsAreIntegers,
  timestampsPlausible,
  errorCodeSnakeCase,
  wrongTypeRejected,
  completionStreamChoicesComplete,
  completionStreamStopExcluded,
  chatStreamChoicesComplete,
  chatStreamStopExcluded,
  chatStreamDeltasAssemble,
  chatStreamChoicesFinish,
  streamSeveralEvents,
];
