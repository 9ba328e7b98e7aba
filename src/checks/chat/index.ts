// Checks of the chat area, registered in checks/index.ts. (Chat stream checks live with the completion
// stream checks in checks/completions, as one family.)

import type { Check } from '../types.ts';
import { usageTotalIsSum } from '../common/usage.ts';
import { chatChoicesN, chatFinishReasonMeaning, chatMaxTokensBound, chatRoleAssistant, chatStopExcluded, chatStopHonoured, chatWithinContext } from './checks.ts';

export const chatUsageTotalIsSum = usageTotalIsSum('chat_usage_total_is_sum', 'CHAT-USAGE-TOTAL-SUM');

export const CHAT_CHECKS: readonly Check[] = [chatUsageTotalIsSum, chatRoleAssistant, chatChoicesN, chatMaxTokensBound, chatWithinContext, chatStopExcluded, chatStopHonoured, chatFinishReasonMeaning];
