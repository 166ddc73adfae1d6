import {
  type AnyEndpoint,
  type EndpointAnswer,
  type EndpointBodyInput,
  type EndpointParams,
  type EndpointQuery,
  type EndpointQueryInput,
  type ErrorCode,
  endpointPath,
} from '@pivot/contracts';
import type { ZodType } from 'zod';
import { env } from '@/config/env';
import { isLocale } from '@/config/locales';
import { isSessionFreePath } from '@/config/paths';
import { i18n } from '@/i18n/i18n';
import { connection } from './connection';
import { type LaterEndpoint, answerSchemas, answerSchemasNow, isLaterEndpoint } from './checked-later';
import { readCookie } from './cookies';
import { loadSessionSchemas } from './load-session-schemas';
import { randomKey } from './random-key';
import { type ServerSentEvent, ServerSentEventParser } from './server-sent-events';
import { noteServerDate } from './server-clock';
import { session } from './session';
import {
  CSRF_COOKIE,
  CSRF_HEADER,
  HEALTH_PATH,
  REFRESH_PATH,
  takeEarlyRefresh,
  withRefreshLock,
} from './session-refresh';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export type ApiFailure = {
  /** null when no answer came at all (offline, server unreachable). */
  status: number | null;
  /** The error's code and message when the answer carried a known error body. */
  error: { code: ErrorCode; message: string } | null;
  /** The raw answer, for callers that read more of it (a password form's field errors). */
  body: unknown;
};

export type ApiRequest<Response> = {
  method: HttpMethod;
  /** Below the API base, e.g. '/user/login/'. */
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  /**
   * Every answer is parsed with the contract's schema: before anyone sees it, or, for a schema
   * fetched later (`CheckedLater`), as soon as it has come.
   */
  response: ZodType<Response> | CheckedLater<Response>;
  /**
   * Called when an answer handed over before its schema had come is refused once checked (after
   * the failure has gone to `onApiFailure`, as for an answer refused on arrival): its caller
   * takes back what it showed, as if the call had failed.
   */
  refusedLater?: () => void;
  /** Failures the caller shows in its own way (field errors in a form): true keeps them from `onApiFailure`. */
  handlesFailure?: (failure: ApiFailure) => boolean;
  /** Ends a long call (an event stream) when its page closes. */
  signal?: AbortSignal;
};

/**
 * A schema fetched later: the answers of a first screen's calls are read with it once it has come
 * (lib/checked-later.ts) rather than waiting for zod before the screen paints. Until then an answer
 * is handed over as it came and checked then; once the schema is there, on arrival.
 */
export type CheckedLater<Response> = {
  checkedLater: true;
  /** The schema if it has come. */
  now: () => ZodType<Response> | undefined;
  later: () => Promise<ZodType<Response>>;
  /** What the schema's decoding changes in a valid answer, done by hand for one handed over unchecked. */
  decode?: (wire: unknown) => unknown;
};

export type ApiResult<Response> = { ok: true; data: Response } | { ok: false; failure: ApiFailure };

const SAFE_METHODS: ReadonlySet<string> = new Set(['GET']);
/** docs/product.md#calls: a safe call is tried once more on these answers. */
const RETRIED_STATUSES: ReadonlySet<number> = new Set([408, 409, 425, 429, 500, 502, 503, 504]);
const IDEMPOTENCY_HEADER = 'Idempotency-Key';

type SessionExpiredHandler = (currentPath: string) => void;
const ignoreExpiry: SessionExpiredHandler = () => undefined;
let sessionExpiredHandler = ignoreExpiry;

/**
 * The app decides how to reach the login page (its router) when a session cannot be renewed.
 * Returns the function that takes the handler away again.
 */
export function onSessionExpired(handler: SessionExpiredHandler): () => void {
  sessionExpiredHandler = handler;
  return () => {
    if (sessionExpiredHandler === handler) sessionExpiredHandler = ignoreExpiry;
  };
}

function apiUrl(path: string, query?: ApiRequest<unknown>['query']): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined) search.set(name, String(value));
  }
  const queryText = search.size > 0 ? `?${search.toString()}` : '';
  return `${env.apiBase}${path}${queryText}`;
}

/** Sends one request; null when no answer came. No timeout: a slow field connection still gets its answer. */
async function send(
  method: HttpMethod,
  url: string,
  body: unknown,
  token: string | null,
  signal?: AbortSignal,
  idempotencyKey?: string,
): Promise<Response | null> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  // The server writes its messages (a password's field errors) in the language the page shows,
  // which need not be the account's or the browser's.
  if (isLocale(i18n.language)) headers['Accept-Language'] = i18n.language;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  if (!SAFE_METHODS.has(method)) headers[CSRF_HEADER] = readCookie(CSRF_COOKIE) ?? '';
  if (idempotencyKey) headers[IDEMPOTENCY_HEADER] = idempotencyKey;
  try {
    return noted(
      await fetch(url, {
        method,
        headers,
        credentials: 'include',
        signal,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    );
  } catch {
    // No route to the server (a request its page aborted says nothing about the connection).
    if (!signal?.aborted) connection.noteNoAnswer();
    return null;
  }
}

/** What an answer tells of the connection and the server's clock, whoever sent its call. */
function noted(response: Response | null): Response | null {
  if (!response) {
    connection.noteNoAnswer();
    return null;
  }
  noteServerDate(response.headers.get('Date'));
  connection.noteAnswer();
  return response;
}

/** The server sets the CSRF cookie on any answer that lacks it; an unsafe call needs it first. */
async function ensureCsrfCookie(): Promise<void> {
  if (readCookie(CSRF_COOKIE)) return;
  await send('GET', apiUrl(HEALTH_PATH), undefined, null);
}

async function requestNewAccessToken(onSent: () => void): Promise<string | null> {
  await ensureCsrfCookie();
  const answered = send('POST', apiUrl(REFRESH_PATH), undefined, null);
  onSent();
  return accessTokenFrom(await answered);
}

async function accessTokenFrom(response: Response | null): Promise<string | null> {
  if (!response?.ok) return null;
  const access = accessTokenOf(await response.json().catch(() => null));
  if (access === null) return null;
  session.setAccessToken(access);
  return access;
}

/**
 * The refresh's answer, read without zod: a session comes back before zod is fetched (it comes
 * after the first screen's paint). Exactly what RefreshResponseSchema takes, one key `access` with
 * a text that is not empty (api-client.test.ts holds the two to the same answers); else null.
 */
export function accessTokenOf(body: unknown): string | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const { access } = body as { access?: unknown };
  return Object.keys(body).length === 1 && typeof access === 'string' && access.length > 0 ? access : null;
}

let refreshing: Promise<string | null> | null = null;

/**
 * A new access token, or null when the session cannot be renewed. Calls that fail together
 * share one refresh; a call whose token was already replaced meanwhile just uses the new one.
 * `onSent` is called once the refresh call has left (at once when this call sends none itself).
 */
export function refreshAccessToken(
  usedToken: string | null = null,
  onSent: () => void = () => undefined,
): Promise<string | null> {
  const current = session.accessToken();
  if (usedToken && current && current !== usedToken) {
    onSent();
    return Promise.resolve(current);
  }
  if (refreshing) {
    onSent();
    return refreshing;
  }
  // The page load's call may have left already, from the page's first script (session-start.ts).
  const early = takeEarlyRefresh();
  if (early) onSent();
  const renewing = early
    ? early.then((response) => accessTokenFrom(noted(response)))
    : withRefreshLock(() => requestNewAccessToken(onSent));
  refreshing = renewing.finally(() => {
    refreshing = null;
  });
  return refreshing;
}

async function exchange(request: Omit<ApiRequest<unknown>, 'response'>): Promise<Response | null> {
  const safe = SAFE_METHODS.has(request.method);
  // A refusal's body is read with a contract schema: for an action, fetched beside the request, not
  // after its answer. A read's refusal (rarer: a first screen's reads are not refused) fetches it
  // then, so that a first screen's paint does not wait for zod.
  if (!safe) void loadSessionSchemas();
  const url = apiUrl(request.path, request.query);
  if (!safe) await ensureCsrfCookie();
  const token = session.accessToken();
  // One key for the action, whatever is sent again for it: the server carries it out once.
  const idempotencyKey = safe ? undefined : randomKey();
  const sendWith = (bearer: string | null) =>
    send(request.method, url, request.body, bearer, request.signal, idempotencyKey);
  let response = await sendWith(token);
  if (response && safe && RETRIED_STATUSES.has(response.status)) {
    response = await sendWith(token);
  }
  // An answer lost on a poor field connection: asked again with the same key, it is the first answer.
  if (!response && !safe && !request.signal?.aborted) response = await sendWith(token);
  if (response?.status !== 401) return response;

  const renewed = await refreshAccessToken(token);
  if (renewed) return sendWith(renewed);
  if (session.isEndingByUser()) return response;
  session.signOut();
  const currentPath = `${location.pathname}${location.search}${location.hash}`;
  if (!isSessionFreePath(location.pathname)) sessionExpiredHandler(currentPath);
  return response;
}

async function readFailure(response: Response | null): Promise<ApiFailure> {
  if (!response) return { status: null, error: null, body: null };
  const body: unknown = await response.json().catch(() => null);
  // Its schema could not be fetched (the connection went meanwhile): the status alone is told.
  const schemas = await loadSessionSchemas().catch(() => null);
  const parsed = schemas?.PasswordCallErrorSchema.safeParse(body);
  const error = parsed?.success ? { code: parsed.data.code, message: parsed.data.message } : null;
  return { status: response.status, error, body };
}

/** One kind of news from the client: who listens, and how to tell them all. */
function createEvent<Payload>() {
  const listeners = new Set<(payload: Payload) => void>();
  return {
    emit(payload: Payload) {
      for (const listener of listeners) listener(payload);
    },
    /** Adds a listener; returns the function that removes it again. */
    subscribe(listener: (payload: Payload) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

const serverChange = createEvent<string>();
const unhandledFailure = createEvent<ApiFailure>();

/**
 * Told of every call that may have changed something on the server (an unsafe call that was
 * answered, even with an error: a refused motion is logged too), with its path, so that what
 * shows the server's state (the unread events' badge) can look again.
 */
export const onServerChange = serverChange.subscribe;

/**
 * Told of every failure its caller does not handle itself (see `handlesFailure`): the app shows
 * it to the user. The client itself shows nothing.
 */
export const onApiFailure = unhandledFailure.subscribe;

/** Sends a request and parses its answer; failures the caller does not handle go to `onApiFailure`. */
export async function apiRequest<Response>(request: ApiRequest<Response>): Promise<ApiResult<Response>> {
  const response = await exchange(request);
  if (response && !SAFE_METHODS.has(request.method)) serverChange.emit(request.path);
  let failure: ApiFailure;
  if (response?.ok) {
    // A 204 has no body: the contracts read it as null (NoContentSchema).
    const body: unknown = response.status === 204 ? null : await response.json().catch(() => undefined);
    const check = request.response;
    const schema = 'checkedLater' in check ? check.now() : check;
    if (!schema) {
      const later = check as CheckedLater<Response>;
      checkLater(body, later, request);
      return { ok: true, data: (later.decode ? later.decode(body) : body) as Response };
    }
    const parsed = schema.safeParse(body);
    if (parsed.success) return { ok: true, data: parsed.data };
    // An answer outside the contract is a fault of the server: say "something went wrong".
    failure = { status: null, error: null, body };
  } else {
    failure = await readFailure(response);
  }
  // A read that got no answer because the connection is lost is not told: the pages say so once.
  const offlineRead = failure.status === null && SAFE_METHODS.has(request.method) && !connection.isOnline();
  if (!offlineRead && !request.handlesFailure?.(failure)) unhandledFailure.emit(failure);
  return { ok: false, failure };
}

/**
 * Checks an answer handed over before its schema had come, once it has: a refused one is told as
 * one refused on arrival ("something went wrong") and its caller takes back what it showed.
 */
function checkLater<Response>(body: unknown, check: CheckedLater<Response>, request: ApiRequest<Response>): void {
  void check.later().then((schema) => {
    if (schema.safeParse(body).success) return;
    const failure: ApiFailure = { status: null, error: null, body };
    if (!request.handlesFailure?.(failure)) unhandledFailure.emit(failure);
    request.refusedLater?.();
  });
}

/** A product call: its data, or false once the failure has been shown (docs/product.md#calls). */
export async function apiCall<Response>(request: ApiRequest<Response>): Promise<Response | false> {
  const result = await apiRequest(request);
  return result.ok ? result.data : false;
}

/** An endpoint whose answer is JSON, read with its schema. */
type JsonEndpoint = AnyEndpoint & { answer: ZodType };

/** What a call of an endpoint gives: the path's parameters (if the path takes some), its query, its body. */
export type EndpointInput<E extends AnyEndpoint> = ([NonNullable<E['params']>] extends [never]
  ? { params?: undefined }
  : { params: EndpointParams<E> }) &
  ([NonNullable<E['body']>] extends [never] ? { body?: undefined } : { body: EndpointBodyInput<E> }) & {
    /** As written, or as its schema parses it (an id as a number): each value goes into the URL as text. */
    query?: EndpointQueryInput<E> | EndpointQuery<E>;
  } & Pick<ApiRequest<unknown>, 'handlesFailure' | 'signal' | 'refusedLater'>;

/** An endpoint's path below the API base, its parameters filled in (if it takes some): for a stream or a download. */
export function pathOf<E extends AnyEndpoint>(
  endpoint: E | LaterEndpoint<E>,
  ...[params]: [NonNullable<E['params']>] extends [never] ? [] : [EndpointParams<E>]
): string {
  return endpointPath(endpoint.path, params as Record<string, string | number> | undefined);
}

/** The answer's schema of an endpoint whose declaration is fetched later. */
function laterAnswer<E extends JsonEndpoint>(endpoint: LaterEndpoint<E>): CheckedLater<EndpointAnswer<E>> {
  const answerOf = (declaration: E) => declaration.answer as ZodType<EndpointAnswer<E>>;
  return {
    checkedLater: true,
    now: () => {
      const schemas = answerSchemasNow();
      return schemas && answerOf(endpoint.declaration(schemas));
    },
    later: async () => answerOf(endpoint.declaration(await answerSchemas())),
    decode: endpoint.decode,
  };
}

/** The request a declared endpoint makes: its method, its path filled in, its answer's schema. */
function endpointRequest<E extends JsonEndpoint>(
  endpoint: E | LaterEndpoint<E>,
  input: EndpointInput<E>,
): ApiRequest<EndpointAnswer<E>> {
  return {
    method: endpoint.method,
    path: endpointPath(endpoint.path, input.params as Record<string, string | number> | undefined),
    query: input.query as ApiRequest<unknown>['query'],
    body: input.body,
    response: isLaterEndpoint(endpoint) ? laterAnswer(endpoint) : (endpoint.answer as ZodType<EndpointAnswer<E>>),
    handlesFailure: input.handlesFailure,
    signal: input.signal,
    refusedLater: input.refusedLater,
  };
}

/** apiRequest of an endpoint declared in the contracts. */
export function requestEndpoint<E extends JsonEndpoint>(
  endpoint: E | LaterEndpoint<E>,
  input: EndpointInput<E>,
): Promise<ApiResult<EndpointAnswer<E>>> {
  return apiRequest(endpointRequest(endpoint, input));
}

/** apiCall of an endpoint declared in the contracts: its answer, or false once the failure has been shown. */
export function callEndpoint<E extends JsonEndpoint>(
  endpoint: E | LaterEndpoint<E>,
  input: EndpointInput<E>,
): Promise<EndpointAnswer<E> | false> {
  return apiCall(endpointRequest(endpoint, input));
}

export type StreamEnd = { opened: true } | { opened: false; failure: ApiFailure };

/**
 * Reads a server-sent event stream with the session's token (EventSource cannot send one),
 * calling `onOpen` once it is open and `onEvent` with each event until the stream ends or
 * `signal` aborts. A stream that cannot be opened is not told to `onApiFailure`: its caller says
 * how live its page still is.
 */
export async function readEventStream(
  path: string,
  onEvent: (event: ServerSentEvent) => void,
  signal: AbortSignal,
  onOpen: () => void,
): Promise<StreamEnd> {
  const response = await exchange({ method: 'GET', path, signal });
  if (!response?.ok || !response.body) return { opened: false, failure: await readFailure(response) };
  onOpen();
  const parser = new ServerSentEventParser(onEvent);
  const decoder = new TextDecoder();
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      connection.noteAnswer();
      parser.push(decoder.decode(value, { stream: true }));
    }
  } catch {
    // A dropped connection or an abort ends the stream like its normal end does; only the
    // first says the connection is lost.
    if (!signal.aborted) connection.noteNoAnswer();
  }
  return { opened: true };
}

/**
 * A file the API writes (a GET: reports, a backup), read with the session's token, which a plain
 * link cannot send: its content and its Content-Disposition. Null once a failure has gone to
 * `onApiFailure`.
 */
export async function fetchFile(request: {
  path: string;
  query?: ApiRequest<unknown>['query'];
}): Promise<{ blob: Blob; disposition: string | null } | null> {
  const response = await exchange({ method: 'GET', path: request.path, query: request.query });
  if (!response?.ok) {
    unhandledFailure.emit(await readFailure(response));
    return null;
  }
  const blob = await response.blob().catch(() => null);
  if (!blob) {
    unhandledFailure.emit(await readFailure(null));
    return null;
  }
  return { blob, disposition: response.headers.get('Content-Disposition') };
}
