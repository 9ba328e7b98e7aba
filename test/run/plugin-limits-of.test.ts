// plugin_limits in a config file: every name in snake_case, as the file's other keys (issue 33: it mixed cases).
import { describe, expect, it } from 'vitest';
import { pluginLimitsOf } from '../../src/run/plugin-limits-of.ts';

describe('plugin_limits of a config file', () => {
  it('takes every limit by its snake_case name, and the older camelCase names still', () => {
    expect(pluginLimitsOf({ plugin_limits: { description_for_model: 7000, api_response_chars: 50000, openapi_parameter_description: 150 } }, 'c.yaml'))
      .toEqual({ description_for_model: 7000, apiResponseChars: 50000, openapiParameterDescription: 150 });
    expect(pluginLimitsOf({ plugin_limits: { apiResponseChars: 40000 } }, 'c.yaml')).toEqual({ apiResponseChars: 40000 });
  });

  it('a wrong name is one line with a did-you-mean, listing the snake_case names', () => {
    expect(() => pluginLimitsOf({ plugin_limits: { api_response_char: 1 } }, 'c.yaml')).toThrow(/^c\.yaml: unknown plugin limit "api_response_char" — did you mean "api_response_chars"\? \(known: name_for_model, .*openapi_parameter_description\)$/);
  });
});
