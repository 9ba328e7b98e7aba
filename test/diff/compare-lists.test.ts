// The items of a list answer are paired by what names them (id, else index), never by their place.
import { expect, it } from 'vitest';
import { compareAnswers, type Answer } from '../../src/diff/compare.ts';
import { loadVolatility } from '../../src/util/volatility.ts';

const volatility = loadVolatility();
const list = (data: unknown[]): Answer => ({ status: 200, contentType: 'application/json', json: { object: 'list', data } });
const job = (id: string, extra: Record<string, unknown> = {}) => ({ id, object: 'fine-tune', hyperparams: { n_epochs: 4, ...extra } });
const diff = (recorded: Answer, received: Answer, ids: Map<string, string> = new Map()) =>
  compareAnswers(recorded, received, { volatility, fixesLengths: false, ids }).map((f) => `${f.pointer}: ${f.message}`);

it('a job the target held before (another kind, listed first) is not compared with the recorded one', () => {
  const ids = new Map([['ft-rec', 'ft-new']]);
  expect(diff(list([job('ft-rec')]), list([job('ft-old', { compute_classification_metrics: true }), job('ft-new')]), ids)).toEqual([]);
});

it('a job the diff created that the list leaves out is a difference; one the recording found there is not', () => {
  expect(diff(list([job('ft-rec')]), list([job('ft-old')]), new Map([['ft-rec', 'ft-new']]))).toEqual(['/data/0: a recorded item (id ft-rec) is not in the list']);
  expect(diff(list([job('ft-someone-elses')]), list([job('ft-old')]))).toEqual([]);
});

it('the paired items are still compared, and items named by index (embeddings) pair by index', () => {
  expect(diff(list([job('ft-rec')]), list([job('ft-new', { extra: 1 })]), new Map([['ft-rec', 'ft-new']]))).toEqual(['/data/0/hyperparams/extra: a key the recorded answer did not have']);
  const emb = (index: number, object = 'embedding') => ({ object, index, embedding: [1, 0] });
  expect(diff(list([emb(0), emb(1)]), list([emb(1), emb(0)]))).toEqual([]);
  expect(diff(list([emb(0), emb(1)]), list([emb(1, 'vector'), emb(0)]))).toEqual(['/data/1/object: another value']);
});

it('items that nothing names (events) are compared in order', () => {
  const ev = (level: string) => ({ object: 'fine-tune-event', level, message: 'x', created_at: 1 });
  expect(diff(list([ev('info'), ev('info')]), list([ev('info'), ev('warn')]))).toEqual(['/data/1/level: another value']);
});
