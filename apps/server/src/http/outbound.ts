import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { type LookupFunction, isIP } from 'node:net';
import type { Duplex } from 'node:stream';
import type { ErrorCode } from '@pivot/contracts';
import { AppError } from '../errors';
import { type ForbiddenKind, forbiddenKind } from './outbound-addresses';

/** How long a request may take from the first byte sent to the last byte read. */
export const OUTBOUND_TIMEOUT_MS = 5000;
/** The most of an answer read; the rest is dropped with the connection. */
export const OUTBOUND_MAX_RESPONSE_BYTES = 64 * 1024;
/** What a connection may read in all (status line and headers besides the capped body). */
const MAX_CONNECTION_BYTES = OUTBOUND_MAX_RESPONSE_BYTES + 32 * 1024;
/**
 * How long any guarded connection may live, whoever made it: libraries (web-push) only limit the
 * time between two packets, which a receiver answering a byte at a time would never reach.
 */
const CONNECTION_LIFETIME_MS = 15_000;

/**
 * An outbound address the rules refuse: a code for the API (translated), and a reason in plain
 * words for a webhook's last error and the log.
 */
export class OutboundRefusal extends AppError {
  constructor(
    code: Extract<ErrorCode, `outbound_${string}`>,
    readonly reason: string,
  ) {
    super(code);
  }
}

/** How one outbound request went: the receiver's status, or why there is none. */
export type OutboundOutcome =
  { ok: true; status: number } | { ok: false; status: number | null; error: string; refusal?: OutboundRefusal };

/** The hosts an operator allowed (`OUTBOUND_ALLOWED_HOSTS`): a host (any port) or host:port. */
export type AllowedHost = { hostname: string; port: number | null };

/**
 * Parses `OUTBOUND_ALLOWED_HOSTS`: comma-separated `host` or `host:port` (`[::1]:8443` for IPv6),
 * normalised as a URL normalises them, so `2130706433` and `127.0.0.1` are one host.
 */
export function parseAllowedHosts(list: string): AllowedHost[] {
  return list
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const url = new URL(`http://${entry}`);
      if (url.pathname !== '/' || url.search || url.username) throw new Error(`not a host or host:port: ${entry}`);
      return { hostname: url.hostname, port: /:\d+$/.test(entry) ? Number(url.port || 80) : null };
    });
}

const DEFAULT_PORT: Record<string, number> = { 'http:': 80, 'https:': 443 };

/** A hostname as URL gives it ("[::1]") to the address it names ("::1"); names stay as they are. */
const bareHost = (hostname: string) => (hostname.startsWith('[') ? hostname.slice(1, -1) : hostname);

function describe(address: string, kind: ForbiddenKind): string {
  return `${address} is a ${kind} address`;
}

/**
 * The one way the server sends requests to addresses a user chose (webhooks, Web Push): https
 * only, never to loopback, private, link-local, multicast or unspecified addresses unless an
 * administrator allowed the host; checked when the address is saved and again on every
 * connection, against the address actually connected to (no gap for DNS rebinding); no
 * redirects followed, a time limit and a cap on what is read.
 */
export class OutboundGuard {
  private readonly httpsAgentInstance: https.Agent;
  private readonly httpAgentInstance: http.Agent;

  constructor(
    private readonly options: {
      allowedHosts: AllowedHost[];
      /** For tests: certificates of local https listeners to trust instead of the public ones. */
      ca?: string | Buffer;
      /** For tests: a resolver in place of the system's (a name that changes its answer). */
      resolve?: typeof dns.lookup;
    },
  ) {
    const connect: OutboundGuard['connect'] = (connection, callback, open) => this.connect(connection, callback, open);
    this.httpsAgentInstance = new (class extends https.Agent {
      override createConnection(
        connection: http.ClientRequestArgs,
        callback?: (error: Error | null, stream: Duplex) => void,
      ): Duplex | null | undefined {
        return connect(connection, callback, (guarded) => super.createConnection(guarded, callback));
      }
    })({ keepAlive: false, ...(options.ca ? { ca: options.ca } : {}) });
    this.httpAgentInstance = new (class extends http.Agent {
      override createConnection(
        connection: http.ClientRequestArgs,
        callback?: (error: Error | null, stream: Duplex) => void,
      ): Duplex | null | undefined {
        return connect(connection, callback, (guarded) => super.createConnection(guarded, callback));
      }
    })({ keepAlive: false });
  }

  /** The agent for https requests made by libraries (web-push): every connection it makes is checked. */
  httpsAgent(): https.Agent {
    return this.httpsAgentInstance;
  }

  /** Whether the operator allowed this host (and port): it may then be private, and use http. */
  allows(hostname: string, port: number): boolean {
    const host = bareHost(hostname).toLowerCase();
    return this.options.allowedHosts.some(
      (allowed) => bareHost(allowed.hostname) === host && (allowed.port === null || allowed.port === port),
    );
  }

  /**
   * The address parsed, if the rules let it be saved; the name is resolved and every address it
   * has is checked. Throws an OutboundRefusal otherwise.
   */
  async check(address: string): Promise<URL> {
    const url = this.target(address);
    if (this.allows(url.hostname, portOf(url)) || isIP(bareHost(url.hostname))) return url;
    let addresses: dns.LookupAddress[];
    try {
      addresses = await this.resolveAll(url.hostname);
    } catch {
      throw new OutboundRefusal('outbound_host_not_found', `${url.hostname} was not found`);
    }
    const refused = firstForbidden(addresses);
    if (refused) throw new OutboundRefusal('outbound_address_refused', `${url.hostname}: ${refused}`);
    return url;
  }

  /**
   * POSTs a body and reports how it went, never throwing: a 3xx is a failure with its status (no
   * redirect is followed), as is any status outside 2xx, a refusal, a timeout or a broken connection.
   */
  async post(
    address: string,
    body: string,
    headers: Record<string, string>,
    { timeoutMs = OUTBOUND_TIMEOUT_MS }: { timeoutMs?: number } = {},
  ): Promise<OutboundOutcome> {
    let url: URL;
    try {
      url = this.target(address);
    } catch (error) {
      return refusalOutcome(error);
    }
    const transport = url.protocol === 'https:' ? https : http;
    const agent = url.protocol === 'https:' ? this.httpsAgentInstance : this.httpAgentInstance;
    return new Promise<OutboundOutcome>((resolve) => {
      let settled = false;
      /** The receiver's status once its answer began; what is read after it only adds to the error. */
      let status: number | undefined;
      let start = '';
      const settle = (outcome: OutboundOutcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        request.destroy();
        resolve(outcome);
      };
      const answered = (code: number) => {
        if (code >= 200 && code < 300) settle({ ok: true, status: code });
        else if (code >= 300 && code < 400)
          settle({ ok: false, status: code, error: `HTTP ${code}: redirect not followed` });
        else
          settle({ ok: false, status: code, error: `HTTP ${code}${start ? `: ${start.trim().slice(0, 200)}` : ''}` });
      };
      const request = transport.request(
        url,
        {
          method: 'POST',
          agent,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers },
        },
        (response) => {
          const code = response.statusCode ?? 0;
          status = code;
          let read = 0;
          response.on('data', (chunk: Buffer) => {
            if (start.length < 200) start += chunk.toString('utf8', 0, Math.min(chunk.length, 200));
            read += chunk.length;
            if (read > OUTBOUND_MAX_RESPONSE_BYTES) answered(code);
          });
          response.on('end', () => answered(code));
          response.on('close', () => answered(code));
          response.on('error', () => answered(code));
        },
      );
      const timer = setTimeout(
        () => settle({ ok: false, status: null, error: `no answer within ${timeoutMs / 1000} s` }),
        timeoutMs,
      );
      request.on('error', (error) => {
        if (status !== undefined) answered(status);
        else settle(error instanceof OutboundRefusal ? refusalOutcome(error) : failure(error));
      });
      request.end(body);
    });
  }

  /**
   * GETs an address under the same rules as `post` (https unless allowed, no forbidden address, no
   * redirect, the time limit) and gives its body, at most `OUTBOUND_MAX_RESPONSE_BYTES`: an answer
   * longer than that is a failure. Never throws.
   */
  async get(
    address: string,
    { timeoutMs = OUTBOUND_TIMEOUT_MS }: { timeoutMs?: number } = {},
  ): Promise<{ ok: true; status: number; body: string } | { ok: false; status: number | null; error: string }> {
    let url: URL;
    try {
      url = this.target(address);
    } catch (error) {
      const refused = refusalOutcome(error);
      return { ok: false, status: null, error: refused.ok ? 'refused' : refused.error };
    }
    const transport = url.protocol === 'https:' ? https : http;
    const agent = url.protocol === 'https:' ? this.httpsAgentInstance : this.httpAgentInstance;
    type Answer = { ok: true; status: number; body: string } | { ok: false; status: number | null; error: string };
    return new Promise<Answer>((resolve) => {
      let settled = false;
      const settle = (answer: Answer) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        request.destroy();
        resolve(answer);
      };
      const request = transport.request(
        url,
        { method: 'GET', agent, headers: { accept: 'application/json' } },
        (response) => {
          const code = response.statusCode ?? 0;
          const chunks: Buffer[] = [];
          let read = 0;
          response.on('data', (chunk: Buffer) => {
            read += chunk.length;
            if (read > OUTBOUND_MAX_RESPONSE_BYTES) settle({ ok: false, status: code, error: 'answer too long' });
            else chunks.push(chunk);
          });
          response.on('end', () => {
            const body = Buffer.concat(chunks).toString('utf8');
            if (code >= 200 && code < 300) settle({ ok: true, status: code, body });
            else settle({ ok: false, status: code, error: `HTTP ${code}` });
          });
          response.on('error', (error) => settle({ ok: false, status: code, error: error.message }));
        },
      );
      const timer = setTimeout(
        () => settle({ ok: false, status: null, error: `no answer within ${timeoutMs / 1000} s` }),
        timeoutMs,
      );
      request.on('error', (error) => {
        const failed = error instanceof OutboundRefusal ? refusalOutcome(error) : failure(error);
        settle({ ok: false, status: null, error: failed.ok ? 'failed' : failed.error });
      });
      request.end();
    });
  }

  /** The URL if its scheme and (when it is an address) its address pass; the name is checked on connecting. */
  private target(address: string): URL {
    let url: URL;
    try {
      url = new URL(address);
    } catch {
      throw new AppError('validation_error');
    }
    const allowed = this.allows(url.hostname, portOf(url));
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && allowed)) {
      throw new OutboundRefusal('outbound_https_required', `${url.protocol} to ${url.host} is not allowed`);
    }
    const literal = bareHost(url.hostname);
    const kind = isIP(literal) ? forbiddenKind(literal) : undefined;
    if (kind && !allowed) throw new OutboundRefusal('outbound_address_refused', describe(literal, kind));
    return url;
  }

  /** Opens a connection the rules allow: an address is checked here, a name by the lookup on connecting. */
  private connect(
    connection: http.ClientRequestArgs,
    callback: ((error: Error | null, stream: Duplex) => void) | undefined,
    open: (connection: http.ClientRequestArgs) => Duplex | null | undefined,
  ): Duplex | null | undefined {
    const host = bareHost(connection.hostname ?? connection.host ?? '');
    const port = Number(connection.port ?? connection.defaultPort);
    const allowed = this.allows(host, port);
    const kind = isIP(host) ? forbiddenKind(host) : undefined;
    if (kind && !allowed) {
      // The agent reports this to the request as its error; no socket is opened.
      callback?.(new OutboundRefusal('outbound_address_refused', describe(host, kind)), undefined as unknown as Duplex);
      return undefined;
    }
    const socket = open(allowed ? connection : { ...connection, lookup: this.guardedLookup });
    if (!socket) return socket;
    let read = 0;
    socket.on('data', (chunk: Buffer) => {
      read += chunk.length;
      if (read > MAX_CONNECTION_BYTES) socket.destroy(new Error('the answer is larger than the server reads'));
    });
    const deadline = setTimeout(
      () => socket.destroy(new Error(`no answer within ${CONNECTION_LIFETIME_MS / 1000} s`)),
      CONNECTION_LIFETIME_MS,
    ).unref();
    socket.once('close', () => clearTimeout(deadline));
    return socket;
  }

  /** Resolves as node would, then refuses the connection if any address of the name is forbidden. */
  private readonly guardedLookup: LookupFunction = (hostname, lookupOptions, callback) => {
    this.resolveAll(hostname, lookupOptions.family).then(
      (addresses) => {
        const refused = firstForbidden(addresses);
        if (refused) {
          callback(new OutboundRefusal('outbound_address_refused', `${hostname}: ${refused}`), '', 0);
        } else if (lookupOptions.all) callback(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };

  private resolveAll(hostname: string, family?: number | string): Promise<dns.LookupAddress[]> {
    const resolve = this.options.resolve ?? dns.lookup;
    const wanted = family === 'IPv4' ? 4 : family === 'IPv6' ? 6 : typeof family === 'number' ? family : 0;
    return new Promise((done, fail) =>
      resolve(bareHost(hostname), { all: true, family: wanted }, (error, addresses) => {
        if (error) fail(error);
        else if (addresses.length === 0)
          fail(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }));
        else done(addresses);
      }),
    );
  }
}

function portOf(url: URL): number {
  return url.port ? Number(url.port) : (DEFAULT_PORT[url.protocol] ?? 0);
}

function firstForbidden(addresses: dns.LookupAddress[]): string | undefined {
  for (const { address } of addresses) {
    const kind = forbiddenKind(address);
    if (kind) return describe(address, kind);
  }
  return undefined;
}

function refusalOutcome(error: unknown): OutboundOutcome {
  if (error instanceof OutboundRefusal) return { ok: false, status: null, error: error.reason, refusal: error };
  return failure(error);
}

function failure(error: unknown): OutboundOutcome {
  const reason =
    error instanceof Error ? error.message || String((error as NodeJS.ErrnoException).code) : String(error);
  return { ok: false, status: null, error: reason };
}
