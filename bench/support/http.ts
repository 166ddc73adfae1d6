/**
 * A GET as a browser tab sends it, reading the whole answer; throws unless it is 200. The
 * timing loops use it instead of a session's JSON call so that they time the server, not parsing.
 */
export async function getBody(baseUrl: string, path: string, access: string | undefined): Promise<string> {
  const response = await fetch(`${baseUrl}${path}`, { headers: access ? { authorization: `Bearer ${access}` } : {} });
  const body = await response.text();
  if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}: ${body.slice(0, 300)}`);
  return body;
}
