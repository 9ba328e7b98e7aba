import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReferenceServer } from '../../src/reference/index.ts';
import { Client, TRAINING_JSONL, VALIDATION_JSONL, expectError, sseData, startWithClient, uploadJsonl, waitFor } from './helpers.ts';

let server: ReferenceServer;
let client: Client;
beforeAll(async () => ({ server, client } = await startWithClient({ trainingMs: 200, modelLoadMs: 150 })));
afterAll(() => server.close());

async function job(id: string) {
  return (await client.get(`/v1/fine-tunes/${id}`)).json;
}

async function untilStatus(id: string, status: string) {
  return waitFor(async () => {
    const j = await job(id);
    return j.status === status ? j : undefined;
  });
}

describe('fine-tune lifecycle', () => {
  it('names its model in the snapshot event before success even when a busy event loop fires the success timer first', async () => {
    // trainingMs 200: the snapshot at 180 ms, success at 200 ms. Job B starts 40 ms after job A; the loop is then
    // blocked past B's success. Node runs every expired timer of the 200 ms list (A's and B's success) before the
    // 180 ms list, whose head is now B's snapshot: B succeeds before its snapshot timer fires.
    const train = (await uploadJsonl(client, TRAINING_JSONL)).json.id;
    const t0 = performance.now();
    await client.post('/v1/fine-tunes', { training_file: train, model: 'ada', n_epochs: 1 });
    await new Promise((r) => setTimeout(r, Math.max(0, t0 + 40 - performance.now())));
    const b = (await client.post('/v1/fine-tunes', { training_file: train, model: 'ada', n_epochs: 1 })).json;
    await new Promise((r) => setTimeout(r, Math.max(0, t0 + 190 - performance.now())));
    while (performance.now() < t0 + 300) { /* the event loop is busy: timers expire without firing */ }
    const done = await untilStatus(b.id, 'succeeded');
    const messages: string[] = done.events.map((e: { message: string }) => e.message);
    expect(messages.filter((m) => m.startsWith('Uploaded model: '))).toEqual([`Uploaded model: ${done.fine_tuned_model}`]);
    expect(messages.indexOf(`Uploaded model: ${done.fine_tuned_model}`)).toBeLessThan(messages.indexOf('Fine-tune succeeded'));
  });

  it('runs pending -> running -> succeeded, with results CSV, usable and deletable model', async () => {
    const train = (await uploadJsonl(client, TRAINING_JSONL)).json.id;
    const valid = (await uploadJsonl(client, VALIDATION_JSONL)).json.id;
    const created = await client.post('/v1/fine-tunes', { training_file: train, validation_file: valid, model: 'ada', suffix: 'my-model', n_epochs: 2 });
    expect(created.status).toBe(200);
    const ft = created.json;
    expect(ft).toMatchObject({ object: 'fine-tune', status: 'pending', fine_tuned_model: null, model: 'ada', organization_id: server.credentials.organization, result_files: [] });
    expect(ft.hyperparams).toEqual({ n_epochs: 2, batch_size: null, prompt_loss_weight: 0.01, learning_rate_multiplier: null });
    expect(ft.events.map((e: { message: string }) => e.message)).toEqual([`Created fine-tune: ${ft.id}`, 'Fine-tune enqueued. Queue number: 0']);
    expect(ft.training_files[0]).toMatchObject({ id: train, object: 'file', status: 'processed' });

    const done = await untilStatus(ft.id, 'succeeded');
    expect(done.fine_tuned_model).toMatch(/^ada:ft-ref-main:my-model-\d{4}-\d{2}-\d{2}-\d{2}-\d{2}-\d{2}$/);
    expect(done.hyperparams).toMatchObject({ batch_size: 1, learning_rate_multiplier: 0.05 });
    const messages = done.events.map((e: { message: string }) => e.message);
    expect(messages).toEqual([
      `Created fine-tune: ${ft.id}`,
      'Fine-tune enqueued. Queue number: 0',
      'Fine-tune started',
      'Completed epoch 1/2',
      'Completed epoch 2/2',
      `Uploaded model: ${done.fine_tuned_model}`,
      `Uploaded result file: ${done.result_files[0].id}`,
      'Fine-tune succeeded',
    ]);
    expect(done.result_files[0]).toMatchObject({ purpose: 'fine-tune-results', filename: 'compiled_results.csv' });

    const csv = (await client.get(`/v1/files/${done.result_files[0].id}/content`)).text.trim().split('\n');
    expect(csv[0]).toBe('step,elapsed_tokens,elapsed_examples,training_loss,training_sequence_accuracy,training_token_accuracy,validation_loss,validation_sequence_accuracy,validation_token_accuracy');
    expect(csv).toHaveLength(1 + 12 * 2); // ceil(12 / 1) steps per epoch * 2 epochs
    expect(csv.slice(1).map((l) => Number(l.split(',')[2]))).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));

    // Loading: a retryable 503 first, then it serves.
    const model = done.fine_tuned_model;
    const early = await client.post('/v1/completions', { model, prompt: 'item 1 ->', max_tokens: 2 });
    if (early.status !== 200) {
      expectError(early, 503);
      expect(early.headers.get('retry-after')).toBeTruthy();
    }
    const served = await waitFor(async () => {
      const r = await client.post('/v1/completions', { model, prompt: 'item 1 ->', max_tokens: 2 });
      return r.status === 200 ? r : undefined;
    });
    expect(served.json.model).toBe(model);
    expect((await client.get('/v1/models')).json.data.map((m: { id: string }) => m.id)).toContain(model);
    expect((await client.get(`/v1/models/${encodeURIComponent(model)}`)).json.owned_by).toBe(server.credentials.organization);

    expectError(await client.call('DELETE', `/v1/models/${model}`, { key: server.credentials.memberApiKey }), 403);
    expect((await client.call('DELETE', `/v1/models/${model}`)).json).toEqual({ id: model, object: 'model', deleted: true });
    expectError(await client.get(`/v1/models/${model}`), 404);
    expect((await client.get('/v1/models')).json.data.map((m: { id: string }) => m.id)).not.toContain(model);

    expectError(await client.post(`/v1/fine-tunes/${ft.id}/cancel`, {}), 400);
  });

  it('cancels a pending job immediately and streams events to [DONE]', async () => {
    const train = (await uploadJsonl(client, TRAINING_JSONL)).json.id;
    const ft = (await client.post('/v1/fine-tunes', { training_file: train })).json;
    const cancelled = await client.post(`/v1/fine-tunes/${ft.id}/cancel`, {});
    expect(cancelled.json).toMatchObject({ status: 'cancelled', fine_tuned_model: null });
    expect(cancelled.json.events.at(-1).message).toBe('Fine-tune cancelled');
    const events = await client.get(`/v1/fine-tunes/${ft.id}/events?stream=true`);
    expect(events.headers.get('content-type')).toBe('text/event-stream');
    const data = sseData(events.text);
    expect(data.at(-1)).toBe('[DONE]');
    expect(data.slice(0, -1).every((e) => (e as { object: string }).object === 'fine-tune-event')).toBe(true);
    const listed = await client.get('/v1/fine-tunes');
    expect(listed.json.object).toBe('list');
    expect(listed.json.data.every((j: Record<string, unknown>) => !('events' in j))).toBe(true);
    expect((await client.get(`/v1/fine-tunes/${ft.id}/events`)).json).toMatchObject({ object: 'list', data: expect.any(Array) });
  });

  it('streams live events of a running job until it succeeds', async () => {
    const train = (await uploadJsonl(client, TRAINING_JSONL)).json.id;
    const ft = (await client.post('/v1/fine-tunes', { training_file: train, n_epochs: 1 })).json;
    const events = await client.get(`/v1/fine-tunes/${ft.id}/events?stream=true`);
    const data = sseData(events.text);
    expect(data.at(-1)).toBe('[DONE]');
    expect((data.at(-2) as { message: string }).message).toBe('Fine-tune succeeded');
  });

  it('writes classification columns for binary metrics with betas', async () => {
    const train = (await uploadJsonl(client, TRAINING_JSONL)).json.id;
    const valid = (await uploadJsonl(client, VALIDATION_JSONL)).json.id;
    const ft = (
      await client.post('/v1/fine-tunes', {
        training_file: train,
        validation_file: valid,
        n_epochs: 1,
        batch_size: 4,
        compute_classification_metrics: true,
        classification_positive_class: ' label1',
        classification_betas: [0.5, 2],
      })
    ).json;
    const done = await untilStatus(ft.id, 'succeeded');
    const csv = (await client.get(`/v1/files/${done.result_files[0].id}/content`)).text.trim().split('\n');
    expect(csv[0]!.split(',').slice(9)).toEqual([
      'classification/accuracy', 'classification/precision', 'classification/recall',
      'classification/f1.0', 'classification/f0.5', 'classification/f2.0', 'classification/auroc', 'classification/auprc',
    ]);
    expect(csv.slice(1).map((l) => l.split(',')[2])).toEqual(['4', '8', '12']);
    expect(done.hyperparams.learning_rate_multiplier).toBe(0.05);
  });

  it('rejects invalid create requests', async () => {
    const train = (await uploadJsonl(client, TRAINING_JSONL)).json.id;
    const search = (await uploadJsonl(client, 'x', 'search')).json.id;
    expectError(await client.post('/v1/fine-tunes', {}), 400, 'training_file');
    expectError(await client.post('/v1/fine-tunes', { training_file: 'file-nope' }), 400, 'training_file');
    expectError(await client.post('/v1/fine-tunes', { training_file: search }), 400, 'training_file');
    expectError(await client.post('/v1/fine-tunes', { training_file: train, model: 'gpt-4' }), 400, 'model');
    expectError(await client.post('/v1/fine-tunes', { training_file: train, suffix: 'x'.repeat(41) }), 400, 'suffix');
    expectError(await client.post('/v1/fine-tunes', { training_file: train, n_epochs: 0 }), 400, 'n_epochs');
    expectError(await client.post('/v1/fine-tunes', { training_file: train, compute_classification_metrics: true, classification_n_classes: 3 }), 400, 'validation_file');
    expectError(await client.post('/v1/fine-tunes', { training_file: train, validation_file: train }), 400, 'validation_file');
    expectError(await client.post('/v1/fine-tunes', { training_file: train, classification_betas: [1] }), 400, 'classification_betas');
    expectError(await client.get('/v1/fine-tunes/ft-nope'), 404);
    expect((await client.post('/v1/fine-tunes', { training_file: train, suffix: 'x'.repeat(40) })).status).toBe(200);
  });
});
