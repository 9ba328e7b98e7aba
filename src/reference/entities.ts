// The reference server's entities: what its state holds and its handlers read. Types only, so that the state, the
// handlers and the request context import them without importing one another.

import type { FaultName } from './faults.ts';

export type JobStatus = 'pending' | 'running' | 'succeeded' | 'failed' | 'cancelled';

export interface FineTuneEvent {
  object: 'fine-tune-event';
  created_at: number;
  level: string;
  message: string;
}

/**
 * How a job tells its life. The spec gives the meaning of the messages, not their words ("job enqueued (with a queue
 * number), job started, snapshot uploaded (with the model name), ..."), and says only that level info occurs: the
 * readings event-messages-reworded and event-levels-other tell it in other words, and at other levels.
 */
export interface Voice {
  reworded: boolean;
  otherLevels: boolean;
}

export type JobListener = (event: FineTuneEvent | 'end') => void;

export interface Classification {
  nClasses: number | null;
  positiveClass: string | null;
  betas: number[] | null;
}

export interface FineTuneJob {
  /** The faults of the server that created the job (for how the job object is shown). */
  fault(name: FaultName): boolean;
  voice: Voice;
  id: string;
  orgId: string;
  orgName: string;
  model: string;
  root: string;
  suffix: string | null;
  createdAt: number;
  updatedAt: number;
  status: JobStatus;
  fineTunedModel: string | null;
  /** Name chosen when the model snapshot is uploaded (before success). */
  modelName: string | null;
  /** The snapshot upload event is recorded (once, by its timer or by success, whichever comes first). */
  modelUploaded?: boolean;
  nEpochs: number;
  requestedBatchSize: number | null;
  requestedLearningRate: number | null;
  batchSize: number | null;
  learningRateMultiplier: number | null;
  promptLossWeight: number;
  classification: Classification | null;
  trainingFile: StoredFile;
  validationFile: StoredFile | null;
  resultFiles: StoredFile[];
  examples: TrainingExample[];
  events: FineTuneEvent[];
  listeners: Set<JobListener>;
  timers: NodeJS.Timeout[];
}

export interface FineTunedModel {
  id: string;
  orgId: string;
  /** The base model at the root of the fine-tune chain (ada/babbage/curie/davinci). */
  root: string;
  created: number;
  /** Epoch ms from which the model serves requests (see ReferenceOptions.modelLoadMs). */
  readyAtMs: number;
  deleted: boolean;
}

export interface FileObject {
  id: string;
  object: 'file';
  bytes: number;
  created_at: number;
  filename: string;
  purpose: string;
  status: 'uploaded' | 'processed';
  status_details: null;
}

export interface StoredFile {
  file: FileObject;
  orgId: string;
  content: Buffer;
}

export interface TrainingExample {
  prompt: string;
  completion: string;
}
