// Checks of the moderations area, registered in checks/index.ts.

import type { Check } from '../types.ts';
import { moderationModelSameAs } from './model.ts';
import { moderationArrayInInputOrder } from './order.ts';
import {
  moderationCategoriesAreBooleans,
  moderationCategoriesSeven,
  moderationCategoriesNoExtra,
  moderationFlaggedConsistent,
  moderationFlaggedIsBoolean,
  moderationOneResultPerInput,
  moderationScoresInRange,
} from './results.ts';

export const MODERATIONS_CHECKS: readonly Check[] = [
  moderationOneResultPerInput,
  moderationCategoriesSeven,
  moderationCategoriesNoExtra,
  moderationCategoriesAreBooleans,
  moderationScoresInRange,
  moderationFlaggedIsBoolean,
  moderationFlaggedConsistent,
  moderationModelSameAs,
  moderationArrayInInputOrder,
];
