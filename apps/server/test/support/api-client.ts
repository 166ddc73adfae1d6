import { gunzipSync } from 'node:zlib';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';

export type ApiResponse = {
  status: number;
  headers: LightMyRequestResponse['headers'];
  /** The parsed JSON body; undefined when the answer has none. */
  body: unknown;
  /** Set-Cookie of this answer by name, with their attributes. */
  cookies: Map<string, LightMyRequestResponse['cookies'][number]>;
};

type RequestOptions = { query?: Record<string, string | number>; headers?: Record<string, string>; csrf?: boolean };

/**
 * Talks to the app in-process like a browser would: keeps cookies, repeats the CSRF cookie in
 * its header on unsafe calls, and sends the access token once signed in.
 */
export class ApiClient {
  readonly cookies = new Map<string, string>();
  access: string | undefined;

  constructor(
    private readonly app: FastifyInstance,
    readonly ip = '127.0.0.1',
  ) {}

  get(url: string, options: RequestOptions = {}) {
    return this.request('GET', url, undefined, options);
  }
  post(url: string, body?: unknown, options: RequestOptions = {}) {
    return this.request('POST', url, body, options);
  }
  patch(url: string, body?: unknown, options: RequestOptions = {}) {
    return this.request('PATCH', url, body, options);
  }
  put(url: string, body?: unknown, options: RequestOptions = {}) {
    return this.request('PUT', url, body, options);
  }
  delete(url: string, options: RequestOptions = {}) {
    return this.request('DELETE', url, undefined, options);
  }

  /** Signs in and keeps the access token; fails the test when the answer is not 200. */
  async login(email: string, password: string, remember = false): Promise<ApiResponse> {
    const response = await this.post('/api/user/login/', { email, password, remember });
    if (response.status !== 200)
      throw new Error(`login failed with ${response.status}: ${JSON.stringify(response.body)}`);
    this.access = (response.body as { access: string }).access;
    return response;
  }

  async request(
    method: InjectOptions['method'],
    url: string,
    body: unknown,
    options: RequestOptions,
  ): Promise<ApiResponse> {
    if (!this.cookies.has('csrf_token') && method !== 'GET') await this.get('/api/health');
    const headers: Record<string, string> = { ...options.headers };
    if (this.access) headers.authorization = `Bearer ${this.access}`;
    if (method !== 'GET' && options.csrf !== false) headers['x-csrf-token'] = this.cookies.get('csrf_token') ?? '';
    if (this.cookies.size > 0) {
      headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    }
    const response = await this.app.inject({
      method,
      url,
      query: Object.fromEntries(Object.entries(options.query ?? {}).map(([key, value]) => [key, String(value)])),
      headers,
      remoteAddress: this.ip,
      ...(body === undefined ? {} : { payload: body as InjectOptions['payload'] }),
    });
    const cookies = new Map(response.cookies.map((cookie) => [cookie.name, cookie]));
    for (const cookie of response.cookies) {
      const expired = cookie.value === '' || (cookie.maxAge !== undefined && cookie.maxAge <= 0);
      if (expired) this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
    // An answer compressed for a client that asked for it (as every browser does) is read as the browser reads it.
    const text =
      response.headers['content-encoding'] === 'gzip'
        ? gunzipSync(response.rawPayload).toString('utf8')
        : response.body;
    // A file the API writes (the reports' CSV) is kept as its text; every other answer is JSON.
    const json = String(response.headers['content-type'] ?? '').includes('application/json');
    return {
      status: response.statusCode,
      headers: response.headers,
      body: !text ? undefined : json ? JSON.parse(text) : text,
      cookies,
    };
  }
}
