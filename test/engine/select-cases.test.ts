// --grep/--tag selection: a selected case runs with every earlier case it depends on, so a reproduce command
// (`--grep <case-id>`) never judges a state the full run would not have had.
import { describe, expect, it } from 'vitest';
import { selectCases } from '../../src/engine/index.ts';
import type { CaseSpec } from '../../src/suite/types.ts';

const c = (id: string, method: CaseSpec['request']['method'], path: string, extra: Partial<CaseSpec> = {}): CaseSpec => ({ id, title: id, requirements: [], request: { method, path }, ...extra });

const cases: CaseSpec[] = [
  c('upload', 'POST', '/v1/files', { capture: { file_id: '/id' } }),
  c('other-upload', 'POST', '/v1/files', { capture: { other_id: '/id' } }),
  c('retrieve', 'GET', '/v1/files/{{file_id}}'),
  c('list', 'GET', '/v1/files'),
  c('delete-other', 'DELETE', '/v1/files/{{other_id}}'),
  c('delete', 'DELETE', '/v1/files/{{file_id}}'),
  c('deleted-not-listed', 'GET', '/v1/files', { expect: { status: '2xx', checks: [{ name: 'file_not_listed_after_delete', with: { id: '{{file_id}}' } }] } }),
  c('deleted-not-retrievable', 'GET', '/v1/files/{{file_id}}'),
];
const picked = (grep: string) => [...selectCases(cases, { grep })].sort();

describe('selectCases', () => {
  it('a case that judges a deleted resource runs after the delete (and the upload it needs), not after the other file\'s', () => {
    expect(picked('deleted-not-listed')).toEqual(['delete', 'deleted-not-listed', 'upload']);
    expect(picked('deleted-not-retrievable')).toEqual(['delete', 'deleted-not-retrievable', 'upload']);
  });

  it('a read before the delete does not pull in the delete, which comes after it', () => {
    expect(picked('retrieve')).toEqual(['retrieve', 'upload']);
  });

  it('a case whose check compares with an earlier case by id runs after that case', () => {
    const withJob: CaseSpec[] = [
      c('create-job', 'POST', '/v1/fine-tunes', { capture: { job_id: '/id' } }),
      c('retrieve-job', 'GET', '/v1/fine-tunes/{{job_id}}'),
      c('events-stream', 'GET', '/v1/fine-tunes/{{job_id}}/events?stream=true', { expect: { status: '2xx', checks: [{ name: 'ft_stream_events_in_order', with: { job: 'retrieve-job' } }] } }),
    ];
    expect([...selectCases(withJob, { grep: 'events-stream' })].sort()).toEqual(['create-job', 'events-stream', 'retrieve-job']);
  });

  it('a case that needs nothing runs alone; no filter selects everything', () => {
    expect(picked('list')).toEqual(['list']);
    expect(selectCases(cases, undefined).size).toBe(cases.length);
  });
});
