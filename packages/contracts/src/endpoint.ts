import type { z } from 'zod';
import type { ErrorCode } from './errors';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The names of a path's `:name` segments: '/sprinkler/:id/program/:programId/' gives 'id' | 'programId'. */
export type PathParamNames<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParamNames<`/${Rest}`>
  : Path extends `${string}:${infer Name}`
    ? Name
    : never;

/** A params schema gives a value for each of the path's names, which goes into the path as text. */
type ParamsOf<Path extends string> = [PathParamNames<Path>] extends [never]
  ? { params?: undefined }
  : { params: z.ZodType<Record<PathParamNames<Path>, string | number>> };

/**
 * One call of the API, declared once: the server registers its route from it, the web app
 * builds its URL and reads its answer with it, and the OpenAPI document comes from it.
 */
export type AnyEndpoint = {
  method: HttpMethod;
  /** Below the API base (`/api`), with `:name` for each parameter; the trailing slash as the spec writes it. */
  path: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /**
   * The schema of a successful answer; none for one that is not JSON (an event stream, a
   * file), which `produces` names.
   */
  answer?: z.ZodType;
  /** The status of a successful answer: 200 unless said. */
  status?: 200 | 201 | 202 | 204;
  /** The content type of an answer that is not JSON, e.g. 'text/event-stream'. */
  produces?: string;
  /** The error codes its own rules may answer (those every call may meet, such as validation_error, aside). */
  errors: readonly ErrorCode[];
  /** Its group in the OpenAPI document. */
  tag: string;
  summary: string;
  description?: string;
  /** Left out of the OpenAPI document: a call of the operator's own tools, not of the API's users. */
  hidden?: true;
};

/** A schema the declaration has, or the field's absence. */
type Field<Name extends string, Schema> = [Schema] extends [undefined]
  ? Partial<Record<Name, undefined>>
  : Record<Name, Schema>;

/** A declaration with its method, path and schemas as their own types, for both sides to read. */
export type Endpoint<
  Method extends HttpMethod,
  Path extends string,
  Params extends z.ZodType | undefined,
  Query extends z.ZodType | undefined,
  Body extends z.ZodType | undefined,
  Answer extends z.ZodType | undefined,
> = Omit<AnyEndpoint, 'method' | 'path' | 'params' | 'query' | 'body' | 'answer'> & {
  method: Method;
  path: Path;
} & Field<'params', Params> &
  Field<'query', Query> &
  Field<'body', Body> &
  Field<'answer', Answer>;

/**
 * Declares an endpoint. It returns its argument as it is; its use is the types: the path's
 * `:names` must be the params schema's keys, and the literal types are kept for both sides.
 */
export function endpoint<
  const Method extends HttpMethod,
  const Path extends string,
  Params extends z.ZodType | undefined = undefined,
  Query extends z.ZodType | undefined = undefined,
  Body extends z.ZodType | undefined = undefined,
  Answer extends z.ZodType | undefined = undefined,
>(
  declaration: Omit<AnyEndpoint, 'method' | 'path' | 'params' | 'query' | 'body' | 'answer'> & {
    method: Method;
    path: Path;
    params?: Params;
    query?: Query;
    body?: Body;
    answer?: Answer;
  } & ParamsOf<Path>,
): Endpoint<Method, Path, Params, Query, Body, Answer> {
  return declaration as Endpoint<Method, Path, Params, Query, Body, Answer>;
}

/** Whether a value is an endpoint's declaration (the OpenAPI test walks the groups with it). */
export function isEndpoint(value: unknown): value is AnyEndpoint {
  return typeof value === 'object' && value !== null && 'method' in value && 'path' in value && 'errors' in value;
}

/** A declaration's fields are optional: `E['query']` is its schema or undefined, and no schema gives undefined. */
type Output<Schema> = [NonNullable<Schema>] extends [never]
  ? undefined
  : NonNullable<Schema> extends z.ZodType
    ? z.output<NonNullable<Schema>>
    : undefined;
type Input<Schema> = [NonNullable<Schema>] extends [never]
  ? undefined
  : NonNullable<Schema> extends z.ZodType
    ? z.input<NonNullable<Schema>>
    : undefined;

/** The parameters as a route reads them (parsed), and as a caller gives them. */
export type EndpointParams<E extends AnyEndpoint> = Output<E['params']>;
export type EndpointQuery<E extends AnyEndpoint> = Output<E['query']>;
export type EndpointBody<E extends AnyEndpoint> = Output<E['body']>;
/** What a caller sends: the body before the server's parsing (its defaults may be left out). */
export type EndpointBodyInput<E extends AnyEndpoint> = Input<E['body']>;
export type EndpointQueryInput<E extends AnyEndpoint> = Input<E['query']>;
/** The answer as the server hands it to the serialiser (which encodes it) and as the caller reads it, parsed. */
export type EndpointAnswer<E extends AnyEndpoint> = Output<E['answer']>;

/**
 * A path with its parameters filled in, each as URL-encoded text:
 * ('/sprinkler/:id/', { id: 4 }) gives '/sprinkler/4/'.
 */
export function endpointPath(path: string, params: Record<string, string | number> | undefined): string {
  return path.replace(/:([A-Za-z]\w*)/g, (_match, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`${path}: no value for :${name}`);
    return encodeURIComponent(String(value));
  });
}
