// The parameters checks take from `with:`, shared by the checks that read them the same way. Each check
// declares its own (CheckBase.params); the suite loader holds every `with:` to them.

import type { ParamSpec, ParamSpecs } from './types.ts';

/** An earlier case whose exchange the check reads. */
export const caseParam = (doc: string, required = true): ParamSpec => ({ kind: 'case', doc, ...(required ? { required } : {}) });

/** The case that created a fine-tune job: optional, the answer itself is the create response without it. */
export const CREATE_CASE: ParamSpecs = { create: caseParam('the case that created the job, when this answer is not its create response', false) };

/** The id a list must (not) hold. */
export const LISTED_ID: ParamSpecs = { id: { kind: 'string', required: true, doc: 'the id the list is searched for' } };

/** The organization a fine-tune job or listing must belong to; an empty one (none configured) skips the check. */
export const ORGANIZATION: ParamSpecs = { organization: { kind: 'string', doc: 'the organization id, usually "{{organization}}"' } };

/** The number of training examples of the job's training file. */
export const EXAMPLES: ParamSpecs = { examples: { kind: 'number', required: true, doc: 'the number of training examples' } };

/** Plugin limits (the configurable Limits table), set by the plugin checker. */
export const PLUGIN_LIMITS: ParamSpecs = { limits: { kind: 'value', doc: 'the plugin length limits, by field' } };
