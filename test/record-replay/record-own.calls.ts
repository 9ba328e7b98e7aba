// The calls of record-own.test.ts, for its offline replay in another process.
import OpenAI, { toFile } from 'openai-v4';

const TRAINING = Array.from({ length: 10 }, (_, i) => JSON.stringify({ prompt: `q${i} ->`, completion: ` a${i}\n` })).join('\n') + '\n';
const STREAM_BODY = { model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: 'Count to five' }], max_tokens: 20, stream: true };

export async function calls(baseURL: string, key: string) {
  const c = new OpenAI({ apiKey: key, baseURL: `${baseURL}/v1`, maxRetries: 0 });
  const chat = await c.chat.completions.create({ model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: 'Say this is a test' }], max_tokens: 12 });
  const stream = await c.chat.completions.create({ ...STREAM_BODY, stream: true } as never) as unknown as AsyncIterable<{ choices: Array<{ delta?: { content?: string } }> }>;
  let streamed = '';
  for await (const chunk of stream) streamed += chunk.choices[0]?.delta?.content ?? '';
  const embedding = await c.embeddings.create({ model: 'text-embedding-ada-002', input: 'The food was delicious', encoding_format: 'float' });
  const file = await c.files.create({ file: await toFile(Buffer.from(TRAINING), 'train.jsonl'), purpose: 'fine-tune' });
  return { chat: chat.choices[0]!.message.content, streamed, dims: embedding.data[0]!.embedding.length, bytes: file.bytes };
}
