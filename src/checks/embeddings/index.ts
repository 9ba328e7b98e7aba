// Checks of the embeddings area, registered in checks/index.ts.

import type { Check } from '../types.ts';
import { embeddingAda002Has1536Floats } from './dimensions.ts';
import { embeddingDataInInputOrder, embeddingOnePerInput } from './one-per-input.ts';
import { embeddingSameAsAlone } from './same-as-alone.ts';
import { embeddingUsageFields, embeddingUsageTotalIsPrompt } from './usage.ts';

export const EMBEDDINGS_CHECKS: readonly Check[] = [
  embeddingOnePerInput,
  embeddingDataInInputOrder,
  embeddingSameAsAlone,
  embeddingAda002Has1536Floats,
  embeddingUsageFields,
  embeddingUsageTotalIsPrompt,
];
