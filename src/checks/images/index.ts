// Checks of the images area, registered in checks/index.ts.

import type { Check } from '../types.ts';
import { imageItemMatchesFormat, imageItemOnlyRequestedFormat } from './item-matches-format.ts';
import { IMAGE_OPERATION_CHECKS } from './per-operation.ts';
import { imageB64Decodes, imageOutputPng, imageUrlFetchable } from './returned-images.ts';

export const IMAGES_CHECKS: readonly Check[] = [
  imageItemMatchesFormat,
  imageItemOnlyRequestedFormat,
  ...IMAGE_OPERATION_CHECKS,
  imageB64Decodes,
  imageUrlFetchable,
  imageOutputPng,
];
