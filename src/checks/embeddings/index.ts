// Checks of the embeddings area, registered in checks/index.ts.

import type { Check } from '../types.ts';
import { embeddingAda002Has1536Floats } from './dimensions.ts';
import { embeddingOnePerInputInOrder } from './one-per-input.ts';
import { embeddingUsageFields, embeddingUsageTotalIsPrompt } from './usage.ts';

export const EMBEDDINGS_CHECKS: readonly Check[] = [
  embeddingOnePerInputInOrder,
  embeddingAda002Has1536Floats,
  embeddingUsageFields,
  embeddingUsageTotalIsPrompt,
];
