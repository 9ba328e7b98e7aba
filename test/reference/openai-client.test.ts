// Drives the reference server with the official openai npm client 3.3.0 (axios + form-data).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Configuration, OpenAIApi } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePng } from '../../src/fixtures/png.ts';
import { makeWav } from '../../src/fixtures/wav.ts';
import { startReferenceServer } from '../../src/reference/index.ts';
import type { ReferenceServer } from '../../src/reference/index.ts';
import { TRAINING_JSONL } from './helpers.ts';

let server: ReferenceServer;
let openai: OpenAIApi;
let dir: string;
// openai 3.3.0 types file params as File; in Node it sends ReadStreams through form-data.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const stream = (name: string): any => fs.createReadStream(path.join(dir, name));

beforeAll(async () => {
  server = await startReferenceServer({ trainingMs: 150 });
  openai = new OpenAIApi(new Configuration({ apiKey: server.credentials.apiKey, basePath: `${server.url}/v1` }));
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reference-openai-'));
  fs.writeFileSync(path.join(dir, 'train.jsonl'), TRAINING_JSONL);
  fs.writeFileSync(path.join(dir, 'transparent.png'), makePng({ width: 64, height: 64, alpha: 'transparent-region' }));
  fs.writeFileSync(path.join(dir, 'opaque.png'), makePng({ width: 64, height: 64 }));
  fs.writeFileSync(path.join(dir, 'speech.wav'), makeWav({ seconds: 3 }));
});
afterAll(async () => {
  await server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('openai 3.3.0 client against the reference server', () => {
  it('text, chat, edit, embedding and moderation calls', async () => {
    const completion = await openai.createCompletion({ model: 'text-davinci-003', prompt: 'alpha beta gamma', stop: ['gamma'], max_tokens: 8 });
    expect(completion.data.choices[0]!.text).toBe(' alpha beta ');
    const chat = await openai.createChatCompletion({ model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: 'hello there' }] });
    expect(chat.data.choices[0]!.message).toEqual({ role: 'assistant', content: 'hello there' });
    const edit = await openai.createEdit({ model: 'text-davinci-edit-001', input: 'hello', instruction: 'capitalise' });
    expect(edit.data.choices[0]!.text).toBe('Hello\n');
    const embedding = await openai.createEmbedding({ model: 'text-embedding-ada-002', input: ['a', 'b'] });
    expect(embedding.data.data).toHaveLength(2);
    expect(embedding.data.data[0]!.embedding).toHaveLength(1536);
    const moderation = await openai.createModeration({ input: 'I will kill you' });
    expect(moderation.data.results[0]!.flagged).toBe(true);
  });

  it('image calls', async () => {
    const image = await openai.createImage({ prompt: 'a cube', n: 1, size: '256x256' });
    expect(image.data.data[0]!.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/images\//);
    const edited = await openai.createImageEdit(stream('transparent.png'), 'add a hat', undefined, 1, '256x256', 'b64_json');
    expect(edited.data.data[0]!.b64_json).toBeTruthy();
    const masked = await openai.createImageEdit(stream('opaque.png'), 'add a hat', stream('transparent.png'), 1, '256x256');
    expect(masked.data.data[0]!.url).toBeTruthy();
    const variation = await openai.createImageVariation(stream('opaque.png'), 2, '256x256');
    expect(variation.data.data).toHaveLength(2);
  });

  it('audio calls', async () => {
    const transcription = await openai.createTranscription(stream('speech.wav'), 'whisper-1');
    expect(transcription.data.text.length).toBeGreaterThan(0);
    const translation = await openai.createTranslation(stream('speech.wav'), 'whisper-1');
    expect(translation.data.text.length).toBeGreaterThan(0);
  });

  it('files, fine-tunes and model management', async () => {
    const file = await openai.createFile(stream('train.jsonl'), 'fine-tune');
    expect(file.data).toMatchObject({ object: 'file', purpose: 'fine-tune' });
    expect((await openai.listFiles()).data.data.map((f) => f.id)).toContain(file.data.id);
    expect(await openai.downloadFile(file.data.id).then((r) => r.data)).toBe(TRAINING_JSONL);

    const cancelled = await openai.createFineTune({ training_file: file.data.id, model: 'ada' });
    expect((await openai.cancelFineTune(cancelled.data.id)).data.status).toBe('cancelled');

    const job = await openai.createFineTune({ training_file: file.data.id, model: 'ada', n_epochs: 1, suffix: 'client' });
    expect(job.data.status).toBe('pending');
    let model: string | null = null;
    for (let i = 0; i < 100 && !model; i++) {
      await new Promise((r) => setTimeout(r, 30));
      model = (await openai.retrieveFineTune(job.data.id)).data.fine_tuned_model;
    }
    const events = await openai.listFineTuneEvents(job.data.id, false);
    expect(events.data.data.at(-1)!.message).toBe('Fine-tune succeeded');
    expect(model).toMatch(/^ada:ft-ref-main:client-/);
    expect((await openai.deleteModel(model!)).data).toEqual({ id: model, object: 'model', deleted: true });
    expect((await openai.deleteFile(file.data.id)).data).toEqual({ id: file.data.id, object: 'file', deleted: true });
  });

  it('model and engine listings', async () => {
    expect((await openai.listModels()).data.data.length).toBeGreaterThan(5);
    expect((await openai.listEngines()).data.data.every((e) => e.object === 'engine' && e.ready)).toBe(true);
  });
});
