// Field readers that enforce one rule each and answer 400 with `param` naming the field.
// Messages follow the real service's JSON-schema wording ("3 is greater than the maximum of 2 - 'temperature'").
import { invalidRequest } from './http-errors.ts';

export interface NumberRule {
  min?: number;
  max?: number;
  integer?: boolean;
}

export interface StringRule {
  required?: boolean;
  maxLength?: number;
  /** Empty strings are rejected unless allowed. */
  allowEmpty?: boolean;
}

function show(value: unknown): string {
  return typeof value === 'string' ? `'${value.length > 60 ? value.slice(0, 60) + '...' : value}'` : JSON.stringify(value) ?? String(value);
}

export function requiredError(name: string) {
  return invalidRequest(`'${name}' is a required property`, name);
}

/**
 * Reads fields from a JSON object or from multipart form fields. Form fields are always strings, so
 * with `fromForm` numbers and booleans are parsed from their text.
 * A null value counts as "not given" for optional fields, as the real service treats it.
 */
export class Fields {
  constructor(
    private readonly source: Readonly<Record<string, unknown>>,
    private readonly fromForm = false,
  ) {}

  has(name: string): boolean {
    return this.source[name] !== undefined && this.source[name] !== null;
  }

  raw(name: string): unknown {
    return this.source[name];
  }

  string(name: string, rule: StringRule & { required: true }): string;
  string(name: string, rule?: StringRule): string | undefined;
  string(name: string, rule: StringRule = {}): string | undefined {
    const value = this.source[name];
    if (value === undefined || value === null) {
      if (rule.required) throw requiredError(name);
      return undefined;
    }
    if (typeof value !== 'string') throw invalidRequest(`${show(value)} is not of type 'string' - '${name}'`, name);
    if (!rule.allowEmpty && rule.required && value.length === 0) throw invalidRequest(`'${name}' must not be empty`, name);
    if (rule.maxLength !== undefined && value.length > rule.maxLength) {
      throw invalidRequest(`${show(value)} is too long - '${name}' (maximum ${rule.maxLength} characters, got ${value.length})`, name);
    }
    return value;
  }

  number(name: string, rule: NumberRule = {}): number | undefined {
    let value = this.source[name];
    if (value === undefined || value === null) return undefined;
    if (this.fromForm && typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) value = Number(value);
    const kind = rule.integer ? 'integer' : 'number';
    if (typeof value !== 'number' || !Number.isFinite(value) || (rule.integer && !Number.isInteger(value))) {
      throw invalidRequest(`${show(value)} is not of type '${kind}' - '${name}'`, name);
    }
    if (rule.min !== undefined && value < rule.min) throw invalidRequest(`${value} is less than the minimum of ${rule.min} - '${name}'`, name);
    if (rule.max !== undefined && value > rule.max) throw invalidRequest(`${value} is greater than the maximum of ${rule.max} - '${name}'`, name);
    return value;
  }

  integer(name: string, rule: Omit<NumberRule, 'integer'> = {}): number | undefined {
    return this.number(name, { ...rule, integer: true });
  }

  boolean(name: string): boolean | undefined {
    let value = this.source[name];
    if (value === undefined || value === null) return undefined;
    if (this.fromForm && (value === 'true' || value === 'false')) value = value === 'true';
    if (typeof value !== 'boolean') throw invalidRequest(`${show(value)} is not of type 'boolean' - '${name}'`, name);
    return value;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const value = this.string(name);
    if (value === undefined) return fallback;
    if (!(allowed as readonly string[]).includes(value)) {
      throw invalidRequest(`${show(value)} is not one of [${allowed.map((a) => `'${a}'`).join(', ')}] - '${name}'`, name);
    }
    return value as T;
  }
}

/** JSON body as an object; anything else (unparseable, array, scalar) is a 400. */
export function parseJsonObject(body: Buffer): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    throw invalidRequest(
      "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The API expects a JSON payload, but what was sent was not valid JSON.)",
    );
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw invalidRequest(`${show(parsed)} is not of type 'object'`);
  }
  return parsed as Record<string, unknown>;
}

/** `stop`: null, a string, or an array of at most `max` strings. */
export function readStop(fields: Fields, max: number): string[] {
  const value = fields.raw('stop');
  if (value === undefined || value === null) return [];
  if (typeof value === 'string') return value === '' ? [] : [value];
  if (!Array.isArray(value) || value.some((s) => typeof s !== 'string')) {
    throw invalidRequest(`${show(value)} is not valid under any of the given schemas - 'stop'`, 'stop');
  }
  if (value.length > max) throw invalidRequest(`${show(value)} is too long - 'stop' (at most ${max} sequences)`, 'stop');
  return (value as string[]).filter((s) => s !== '');
}

/** `logit_bias`: map from token id (as a string) to a number in [min, max]. */
export function readLogitBias(fields: Fields, range: { min: number; max: number }, maxTokenId: number): Record<string, number> {
  const value = fields.raw('logit_bias');
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw invalidRequest(`${show(value)} is not of type 'object' - 'logit_bias'`, 'logit_bias');
  for (const [key, bias] of Object.entries(value as Record<string, unknown>)) {
    const id = Number(key);
    if (!/^\d+$/.test(key) || id > maxTokenId) {
      throw invalidRequest(`Invalid key in 'logit_bias': ${key}. Keys must be token ids between 0 and ${maxTokenId}.`, 'logit_bias');
    }
    if (typeof bias !== 'number' || !Number.isFinite(bias) || bias < range.min || bias > range.max) {
      throw invalidRequest(`Invalid value for 'logit_bias' key ${key}: ${show(bias)}. Values must be numbers between ${range.min} and ${range.max}.`, 'logit_bias');
    }
  }
  return value as Record<string, number>;
}
