// A fixed client workload, as an application would make it through the official openai client v4: a completion,
// a chat completion, a streamed one, an embedding, a file upload, an image edit with a mask, and a fine-tune
// followed to the end. Used against the proxy, and against a replay of what the proxy recorded.
import OpenAI, { toFile } from 'openai-v4';
import { makePng } from '../../src/fixtures/png.ts';

export interface WorkloadAnswers {
  completion: string;
  chat: string;
  streamed: string;
  chunks: number;
  dims: number;
  fileId: string;
  images: number;
  fineTune: string;
}

export const TRAINING = Array.from({ length: 12 }, (_, i) => JSON.stringify({ prompt: `Item ${i} ->`, completion: ` answer ${i}\n` })).join('\n') + '\n';

export function client(baseURL: string, apiKey: string, cassette?: string): OpenAI {
  return new OpenAI({ apiKey, baseURL, maxRetries: 0, timeout: 30_000, ...(cassette ? { defaultHeaders: { 'x-conformance-cassette': cassette } } : {}) });
}

export async function workload(c: OpenAI, opts: { fineTune?: boolean } = {}): Promise<WorkloadAnswers> {
  const completion = await c.completions.create({ model: 'text-davinci-003', prompt: 'Say this is a test', max_tokens: 7, n: 2, stop: ['\n'] });
  const chat = await c.chat.completions.create({ model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: 'Say this is a test' }], max_tokens: 12 });
  const stream = await c.chat.completions.create({ model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: 'Count to five' }], max_tokens: 20, stream: true });
  let streamed = '';
  let chunks = 0;
  for await (const chunk of stream) { chunks++; streamed += chunk.choices[0]?.delta?.content ?? ''; }
  const embedding = await c.embeddings.create({ model: 'text-embedding-ada-002', input: ['The food was delicious', 'and the waiter'], encoding_format: 'float' });
  const file = await c.files.create({ file: await toFile(Buffer.from(TRAINING), 'train.jsonl'), purpose: 'fine-tune' });
  const image = await c.images.edit({
    image: await toFile(makePng({ width: 64, height: 64, alpha: 'opaque' }), 'image.png', { type: 'image/png' }),
    mask: await toFile(makePng({ width: 64, height: 64, alpha: 'transparent-region' }), 'mask.png', { type: 'image/png' }),
    prompt: 'A sunlit lounge', n: 1, size: '256x256', response_format: 'b64_json',
  });
  let fineTune = '';
  if (opts.fineTune !== false) {
    let job = await c.post<unknown, { id: string; status: string }>('/fine-tunes', { body: { training_file: file.id, model: 'ada', n_epochs: 1 } });
    for (let i = 0; i < 200 && !['succeeded', 'failed', 'cancelled'].includes(job.status); i++) {
      await new Promise((r) => setTimeout(r, 50));
      job = await c.get<unknown, { id: string; status: string }>(`/fine-tunes/${job.id}`);
    }
    await c.get(`/fine-tunes/${job.id}/events`);
    fineTune = job.status;
  }
  return {
    completion: completion.choices.map((x) => x.text).join('|'), chat: chat.choices[0]!.message.content ?? '', streamed, chunks,
    dims: embedding.data[0]!.embedding.length, fileId: file.id, images: image.data?.length ?? 0, fineTune,
  };
}
