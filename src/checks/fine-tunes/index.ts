// Checks of the fine-tunes area, registered in checks/index.ts.

import type { Check } from '../types.ts';
import { ftCreatedPending, ftCreateModelNull, ftCreateNoResults, ftJobInOrg, ftJobModelIsRequested, ftTrainingFilesEcho, ftValidationFilesEcho } from './create.ts';
import { ftEnqueueEventRecorded, ftEventResultFileId, ftEventsLifecycleOrder, ftEventsLifecycleWords, ftEventsListOrder, ftEventSnapshotNamesModel, ftEventsMatchJob, ftLifecycleEventsInfo } from './events.ts';
import { HYPERPARAM_CHECKS } from './hyperparams.ts';
import { LIST_CHECKS } from './lists.ts';
import { NAME_CHECKS } from './name.ts';
import { RESULTS_CHECKS } from './results.ts';
import { ftCancelFinal, ftCancelModelNull, ftCancelPostAccepted, ftCancelServed, ftFineTunedModelMatchesStatus, ftFinishedWhenStreamDone, ftJobCancelled, ftStatusSucceeded, ftStatusTransitions } from './status.ts';
import { ftStreamEventsAreEvents, ftStreamEventsInOrder } from './stream.ts';

export const FINETUNES_CHECKS: readonly Check[] = [
  ftCreatedPending, ftCreateModelNull, ftCreateNoResults, ftTrainingFilesEcho, ftValidationFilesEcho, ftJobModelIsRequested, ftJobInOrg,
  ...HYPERPARAM_CHECKS,
  ftStatusSucceeded, ftCancelPostAccepted, ftCancelServed, ftJobCancelled, ftCancelModelNull, ftCancelFinal, ftStatusTransitions, ftFinishedWhenStreamDone, ftFineTunedModelMatchesStatus,
  ftEventsLifecycleOrder, ftEnqueueEventRecorded, ftEventSnapshotNamesModel, ftEventResultFileId, ftLifecycleEventsInfo, ftEventsMatchJob, ftEventsLifecycleWords, ftEventsListOrder,
  ...NAME_CHECKS,
  ftStreamEventsAreEvents, ftStreamEventsInOrder,
  ...RESULTS_CHECKS,
  ...LIST_CHECKS,
];
