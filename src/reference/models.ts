// The model catalogue: base models as a data table, fine-tuned models created by fine-tune jobs,
// and the one resolver every generating endpoint uses to accept or reject a `model`.
import type { Caller } from './accounts.ts';
import type { App } from './context.ts';
import { invalidRequest, modelLoading, modelNotFound } from './http-errors.ts';
import { hashParts } from './random.ts';
import type { FineTunedModel } from './entities.ts';

export type Capability = 'completion' | 'chat' | 'edit' | 'embedding' | 'audio' | 'moderation';

export interface BaseModel {
  id: string;
  capability: Capability;
  /** Tokens of prompt + completion the model can attend to (0 where irrelevant). */
  contextLength: number;
  ownedBy: string;
  created: number;
}

export const BASE_MODELS: readonly BaseModel[] = [
  { id: 'ada', capability: 'completion', contextLength: 2048, ownedBy: 'openai', created: 1649357491 },
  { id: 'babbage', capability: 'completion', contextLength: 2048, ownedBy: 'openai', created: 1649358449 },
  { id: 'curie', capability: 'completion', contextLength: 2048, ownedBy: 'openai', created: 1649359874 },
  { id: 'davinci', capability: 'completion', contextLength: 2048, ownedBy: 'openai', created: 1649359874 },
  { id: 'text-davinci-003', capability: 'completion', contextLength: 4096, ownedBy: 'openai-internal', created: 1669599635 },
  { id: 'gpt-3.5-turbo', capability: 'chat', contextLength: 4096, ownedBy: 'openai', created: 1677610602 },
  { id: 'gpt-4', capability: 'chat', contextLength: 8192, ownedBy: 'openai', created: 1687882411 },
  { id: 'text-davinci-edit-001', capability: 'edit', contextLength: 2048, ownedBy: 'openai', created: 1649809179 },
  { id: 'code-davinci-edit-001', capability: 'edit', contextLength: 2048, ownedBy: 'openai', created: 1649880484 },
  { id: 'text-embedding-ada-002', capability: 'embedding', contextLength: 8192, ownedBy: 'openai-internal', created: 1671217299 },
  { id: 'whisper-1', capability: 'audio', contextLength: 0, ownedBy: 'openai-internal', created: 1677532384 },
  { id: 'text-moderation-latest', capability: 'moderation', contextLength: 0, ownedBy: 'openai', created: 1677532384 },
  { id: 'text-moderation-stable', capability: 'moderation', contextLength: 0, ownedBy: 'openai', created: 1677532384 },
];

/**
 * A model named as model hubs name them, owner/name: a path parameter with a slash in it. Listed and served with the
 * reading model-ids-with-slash (a client must percent-encode it in /v1/models/{model}).
 */
export const HUB_MODEL: BaseModel = { id: 'meta-llama/Llama-2-7b-chat-hf', capability: 'chat', contextLength: 4096, ownedBy: 'meta-llama', created: 1689811200 };

/** The base models this server lists. */
export function listedBaseModels(app: App): readonly BaseModel[] {
  return app.reading('model-ids-with-slash') ? [...BASE_MODELS, HUB_MODEL] : BASE_MODELS;
}

const BASE_BY_ID = new Map(BASE_MODELS.map((m) => [m.id, m]));

export function baseModel(id: string): BaseModel | undefined {
  return BASE_BY_ID.get(id);
}


export function liveFineTunedModel(app: App, caller: Caller, id: string): FineTunedModel | undefined {
  const m = app.state.fineTunedModels.get(id);
  return m && !m.deleted && m.orgId === caller.org.id ? m : undefined;
}

export interface ResolvedModel {
  id: string;
  contextLength: number;
}

const WRONG_ENDPOINT_HINT: Partial<Record<Capability, string>> = {
  chat: 'This is a chat model and not supported in the v1/completions endpoint. Did you mean to use v1/chat/completions?',
  completion: 'This is not a chat model and thus not supported in the v1/chat/completions endpoint. Did you mean to use v1/completions?',
};

/**
 * Accepts `modelId` for an endpoint serving `capability`. Unknown (or another org's) models are 404
 * model_not_found; a known model of another kind is 400 (param model); a fine-tuned model that is
 * still loading is a retryable 503.
 */
export function resolveModel(
  app: App,
  caller: Caller,
  modelId: string,
  capability: Capability,
  leniency: { anyKnownModel?: boolean; anyModel?: boolean } = {},
): ResolvedModel {
  const base = BASE_BY_ID.get(modelId);
  if (base) {
    if (base.capability !== capability && !leniency.anyKnownModel && !leniency.anyModel) {
      const hint = WRONG_ENDPOINT_HINT[base.capability] ?? `The model '${modelId}' cannot be used with this endpoint (it is a ${base.capability} model).`;
      throw invalidRequest(hint, 'model');
    }
    return { id: base.id, contextLength: base.contextLength || 2048 };
  }
  const deleted = app.state.fineTunedModels.get(modelId);
  const tuned = liveFineTunedModel(app, caller, modelId) ?? (app.fault('deleted-model-still-usable') && deleted?.orgId === caller.org.id ? deleted : undefined);
  if (tuned) {
    if (capability !== 'completion' && !leniency.anyKnownModel && !leniency.anyModel) {
      throw invalidRequest(`The fine-tuned model '${modelId}' can only be used with v1/completions.`, 'model');
    }
    const waitMs = tuned.readyAtMs - Date.now();
    if (waitMs > 0) throw modelLoading(modelId, waitMs / 1000);
    return { id: tuned.id, contextLength: BASE_BY_ID.get(tuned.root)?.contextLength ?? 2048 };
  }
  if (leniency.anyModel) return { id: modelId, contextLength: 2048 };
  throw modelNotFound(modelId);
}

// ---- Model objects -------------------------------------------------------------------------------

export interface ModelObject {
  id: string;
  object: 'model';
  created: number | string;
  owned_by: string;
  permission: PermissionObject[];
  root: string;
  parent: string | null;
}

interface PermissionObject {
  id: string;
  object: 'model_permission';
  created: number;
  allow_create_engine: boolean;
  allow_sampling: boolean;
  allow_logprobs: boolean;
  allow_search_indices: boolean;
  allow_view: boolean;
  allow_fine_tuning: boolean;
  organization: string;
  group: null;
  is_blocking: boolean;
}

function permission(modelId: string, created: number, organization: string, fineTunable: boolean): PermissionObject {
  return {
    // Without the creation stamp of a fine-tuned name, so the id does not depend on the second it was made.
    id: `modelperm-${hashParts('perm', modelId.replace(/-\d{4}(?:-\d{2}){5}$/, '')).toString(36)}`,
    object: 'model_permission',
    created,
    allow_create_engine: false,
    allow_sampling: true,
    allow_logprobs: true,
    allow_search_indices: false,
    allow_view: true,
    allow_fine_tuning: fineTunable,
    organization,
    group: null,
    is_blocking: false,
  };
}

function createdField(app: App, created: number): number | string {
  return app.fault('model-created-not-integer') ? new Date(created * 1000).toISOString() : created;
}

export function baseModelObject(app: App, m: BaseModel): ModelObject {
  const fineTunable = (app.limits.fineTuneBaseModels as readonly string[]).includes(m.id);
  return {
    id: m.id,
    object: 'model',
    created: createdField(app, m.created),
    owned_by: m.ownedBy,
    permission: [permission(m.id, m.created, '*', fineTunable)],
    root: m.id,
    parent: null,
  };
}

export function fineTunedModelObject(app: App, m: FineTunedModel): ModelObject {
  return {
    id: m.id,
    object: 'model',
    created: createdField(app, m.created),
    owned_by: app.fault('fine-tuned-model-owned-by-openai') ? 'openai' : m.orgId,
    permission: [permission(m.id, m.created, m.orgId, true)],
    root: m.root,
    parent: m.root,
  };
}
