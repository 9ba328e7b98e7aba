// "X is (not) in this list": one rule shape used by several requirements (a file or job just
// created is listed; a deleted one is not; another organization's is not). Each use cites its own ID.

import { notExercised, type ResponseCheck, type Severity } from '../types.ts';
import { LISTED_ID } from '../params.ts';
import { bodyOf, finding, stringParam, unlessOkJson } from './support.ts';

export interface ListMembershipRule {
  name: string;
  requirements: readonly string[];
  severity?: Severity;
  /** true: the id must be listed; false: it must not be. */
  listed: boolean;
  /** What the id names, for messages: "the uploaded file". */
  what: string;
  summary: string;
}

/** Reads `with: { id }` and looks for it among the ids of the data items. */
export function listMembership(rule: ListMembershipRule): ResponseCheck {
  return {
    kind: 'response',
    name: rule.name,
    requirements: rule.requirements,
    severity: rule.severity ?? 'must',
    summary: rule.summary,
    params: LISTED_ID,
    skipWhen: unlessOkJson,
    run: (exchange, ctx) => {
      const id = stringParam(ctx, 'id');
      const data = bodyOf(exchange)!.data;
      if (!Array.isArray(data)) return [finding('/data', 'the list has no data array', 'an array', data ?? 'absent')];
      const at = data.findIndex((item) => typeof item === 'object' && item !== null && (item as Record<string, unknown>).id === id);
      // Pagination is not shown: a page of a longer list (has_more) may hold an item only on a later page.
      if (rule.listed && at < 0 && bodyOf(exchange)!.has_more === true) return notExercised(`${rule.what} ${id} is not on this page, and the list says has_more: it may be on another`);
      if (rule.listed && at < 0) return [finding('/data', `${rule.what} ${id} is not listed`, `an item with id ${id}`, `${data.length} items without it`)];
      if (!rule.listed && at >= 0) return [finding(`/data/${at}`, `${rule.what} ${id} is listed`, `no item with id ${id}`, data[at])];
      return [];
    },
  };
}

/** The body's id is the one the request path names (retrieve, delete). */
export function idMatchesPath(name: string, requirements: readonly string[], summary: string): ResponseCheck {
  return {
    kind: 'response',
    name,
    requirements,
    severity: 'must',
    summary,
    skipWhen: unlessOkJson,
    run: (exchange, ctx) => {
      const segments = ctx.request.path.split('?')[0]!.split('/');
      // The id is the segment after the collection name (/v1/files/{id}, /v1/models/{model}, /v1/fine-tunes/{id}).
      const raw = segments[3] ?? '';
      let expected = raw;
      try { expected = decodeURIComponent(raw); } catch { /* keep raw */ }
      const id = bodyOf(exchange)!.id;
      return id === expected ? [] : [finding('/id', 'the id differs from the one requested', expected, id ?? 'absent')];
    },
  };
}
