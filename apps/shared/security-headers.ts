/**
 * Headers on every answer of the daemons (issue 26): the browser sniffs no type, frames nothing,
 * sends no referrer on, and an answer opened as a document (an error body, a stored medium) can
 * load and run nothing. Pages replace the policy with one of their own (pagePolicy).
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
};

/**
 * A page's Content-Security-Policy: nothing but what it names, never framed, no `<base>`, forms
 * posting only where `form-action` says (or anywhere when it is not named: a redirect after a
 * form post is checked against it too).
 */
export function pagePolicy(directives: Record<string, string>): string {
  return Object.entries({ 'default-src': "'none'", ...directives, 'base-uri': "'none'", 'frame-ancestors': "'none'" })
    .map(([name, value]) => `${name} ${value}`).join('; ');
}
