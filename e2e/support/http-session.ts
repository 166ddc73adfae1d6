/**
 * A client over real HTTP that behaves like a browser tab: it keeps cookies, echoes the CSRF
 * cookie in its header on unsafe calls, and sends its access token.
 */
export class HttpSession {
  private readonly cookies = new Map<string, string>();
  access: string | undefined;

  constructor(private readonly baseUrl: string) {}

  async call(
    method: string,
    path: string,
    body?: unknown,
    /** More headers, such as an Idempotency-Key. */
    extraHeaders: Record<string, string> = {},
  ): Promise<{ status: number; body: unknown }> {
    if (method !== 'GET' && !this.cookies.has('csrf_token')) await this.call('GET', '/api/health');
    const headers: Record<string, string> = { ...extraHeaders };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.access) headers.authorization = `Bearer ${this.access}`;
    if (method !== 'GET') headers['x-csrf-token'] = this.cookies.get('csrf_token') ?? '';
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const separator = pair.indexOf('=');
      const name = pair.slice(0, separator).trim();
      const value = pair.slice(separator + 1).trim();
      if (value === '' || /max-age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  }

  async login(email: string, password: string): Promise<void> {
    const response = await this.call('POST', '/api/user/login/', { email, password });
    if (response.status !== 200) throw new Error(`login failed: ${response.status} ${JSON.stringify(response.body)}`);
    this.access = (response.body as { access: string }).access;
  }
}
