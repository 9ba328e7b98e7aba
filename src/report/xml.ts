// XML 1.0 escaping for the JUnit reporter.

/** Characters XML 1.0 cannot carry at all (even escaped): C0 controls but tab/LF/CR, U+FFFE/U+FFFF, lone surrogates. */
// eslint-disable-next-line no-control-regex
const ILLEGAL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function stripIllegalXml(s: string): string {
  return s.replace(ILLEGAL, '');
}

/** Whether a string needs anything done to it: most of a report's strings (ids, names, passing messages) do not. */
// eslint-disable-next-line no-control-regex
const NEEDS_TEXT_ESCAPE = /[&<>\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;
// eslint-disable-next-line no-control-regex
const NEEDS_ATTR_ESCAPE = /[&<>"'\t\n\r\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;

/** Escape for element text (quotes need no escaping there; keeping them readable keeps CI logs readable). */
export function xmlText(s: string): string {
  if (!NEEDS_TEXT_ESCAPE.test(s)) return s;
  return stripIllegalXml(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Escape for an attribute value: all five entities, and whitespace as character references so parsers keep it. */
export function xmlAttr(s: string): string {
  if (!NEEDS_ATTR_ESCAPE.test(s)) return s;
  return xmlText(s)
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/\t/g, '&#9;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;');
}
