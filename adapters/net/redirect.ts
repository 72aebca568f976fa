/** The statuses fetch follows as redirects. */
export const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

const BODY_HEADERS = ['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location'];

/**
 * A redirect's next hop as fetch takes it (Fetch standard, HTTP-redirect fetch): 303, and 301/302
 * after a POST, go on as a GET without the body and its headers; 307/308 keep method and body; a
 * different origin loses `originBound` (credentials of the first origin). `headers` (lower-case
 * names) are changed in place.
 */
export function redirectHop(
  from: URL, status: number, location: string, method: string, headers: Record<string, string>, originBound: readonly string[],
): { url: URL; method: string; asGet: boolean } {
  const url = new URL(location, from);
  const asGet = (status === 303 && method !== 'HEAD') || ((status === 301 || status === 302) && method === 'POST');
  if (asGet) for (const h of BODY_HEADERS) delete headers[h];
  if (url.origin !== from.origin) for (const h of originBound) delete headers[h];
  return { url, method: asGet ? 'GET' : method, asGet };
}
