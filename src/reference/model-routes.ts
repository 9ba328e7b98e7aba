// GET/DELETE /v1/models and the deprecated GET /v1/engines.
import type { Ctx } from './context.ts';
import { forbidden, modelNotFound, notFound } from './http-errors.ts';
import { BASE_MODELS, baseModel, baseModelObject, fineTunedModelObject, HUB_MODEL, listedBaseModels, liveFineTunedModel } from './models.ts';
import type { BaseModel, ModelObject } from './models.ts';
import { unixSeconds } from './random.ts';
import type { FineTunedModel } from './entities.ts';

function orgFineTunedModels(ctx: Ctx): FineTunedModel[] {
  return [...ctx.app.state.fineTunedModels.values()].filter((m) => m.orgId === ctx.caller.org.id && !m.deleted);
}

export function listModels(ctx: Ctx): unknown {
  const tuned = ctx.fault('fine-tuned-model-not-listed') ? [] : orgFineTunedModels(ctx);
  const data = [...listedBaseModels(ctx.app).map((m) => baseModelObject(ctx.app, m)), ...tuned.map((m) => fineTunedModelObject(ctx.app, m))];
  return { object: ctx.fault('model-list-object-wrong') ? 'models' : 'list', data };
}

/** How many models the stale cache of the fault model-retrieve-stale-subset holds. */
const STALE_CACHE_SIZE = 12;

export function retrieveModel(ctx: Ctx): unknown {
  const id = ctx.params.model!;
  const base = baseModel(id) ?? (ctx.reading('model-ids-with-slash') && id === HUB_MODEL.id ? HUB_MODEL : undefined);
  if (base && ctx.fault('model-retrieve-stale-subset') && BASE_MODELS.indexOf(base) >= STALE_CACHE_SIZE) throw modelNotFound(id);
  if (base) return leanWhenRead(ctx, { ...baseModelObject(ctx.app, base), ...(ctx.fault('model-retrieve-owner-differs') ? { owned_by: 'openai' } : {}) });
  const tuned = liveFineTunedModel(ctx.app, ctx.caller, id);
  if (tuned) return leanWhenRead(ctx, fineTunedModelObject(ctx.app, tuned));
  if (ctx.fault('model-retrieve-unknown-200')) return { ...baseModelObject(ctx.app, BASE_MODELS[0]!), id, root: id };
  throw modelNotFound(id);
}

/**
 * The reading `model-retrieve-lean`: a retrieved Model carries the fields of the spec's Model table, with `created`
 * stamped when it answers (a model card built per response), and no root or parent.
 */
function leanWhenRead(ctx: Ctx, model: ModelObject): unknown {
  if (!ctx.reading('model-retrieve-lean')) return model;
  return { id: model.id, object: model.object, created: unixSeconds(), owned_by: model.owned_by, permission: model.permission };
}

export function deleteModel(ctx: Ctx): unknown {
  const id = ctx.params.model!;
  if (baseModel(id) && ctx.fault('base-model-delete-accepted')) return { id, object: 'model', deleted: true };
  if (baseModel(id)) throw forbidden(`You do not have permission to delete the base model '${id}'; only fine-tuned models of your organization can be deleted.`, 'model');
  const tuned = liveFineTunedModel(ctx.app, ctx.caller, id);
  if (!tuned) throw modelNotFound(id);
  if (ctx.caller.role !== 'owner' && !ctx.fault('member-may-delete-model')) {
    throw forbidden(`You must be an owner of organization ${ctx.caller.org.id} to delete the model '${id}'.`, 'model');
  }
  if (!ctx.fault('deleted-model-still-listed')) tuned.deleted = true;
  return { id, object: 'model', deleted: true };
}

function engineObject(ctx: Ctx, id: string, owner: string): Record<string, unknown> {
  const engine: Record<string, unknown> = { id, object: ctx.fault('engine-object-wrong') ? 'model' : 'engine', owner };
  if (ctx.fault('engine-owner-missing')) delete engine.owner;
  if (!ctx.fault('engine-ready-missing')) engine.ready = true;
  // The 2022 engines carried created: null, a field the Engine table does not list (engine-created-null).
  if (ctx.reading('engine-created-null')) engine.created = null;
  return engine;
}

export function listEngines(ctx: Ctx): unknown {
  const data = BASE_MODELS.map((m: BaseModel) => engineObject(ctx, m.id, m.ownedBy));
  if (ctx.fault('engines-include-fine-tuned')) data.push(...orgFineTunedModels(ctx).map((m) => engineObject(ctx, m.id, m.orgId)));
  return { object: 'list', data };
}

export function retrieveEngine(ctx: Ctx): unknown {
  const base = ctx.fault('engine-retrieve-wrong-id') ? BASE_MODELS[0] : baseModel(ctx.params.id!);
  if (!base && ctx.fault('engine-retrieve-unknown-200')) return engineObject(ctx, ctx.params.id!, 'openai');
  if (!base) throw notFound(`No such engine: ${ctx.params.id}`, 'engine_id', 'model_not_found');
  return engineObject(ctx, base.id, base.ownedBy);
}
