import { z } from 'zod';
import type { CodeWithStatus } from '../../../core/domain/error-codes';

/**
 * One REST operation, declared once: the edge validates requests with it (mount.ts), the OpenAPI
 * document is generated from it (openapi.ts), and the MCP daemon builds its tools from it.
 */
export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * The credential an operation takes. `apiKey`: `Authorization: Apikey <key>` (or an MCP agent token, `Bearer hma_…`);
 * `connectToken`: `Authorization: Bearer <connect token>` (the token inside a connect URL);
 * `none`: no header (public documents, or a credential inside the request such as a one-time
 * OAuth state; say which in the description).
 */
export type AuthScheme = 'apiKey' | 'connectToken' | 'none';

/** A binary part of a multipart body (a file). Text fields of the same form go in `body`. */
export interface FilePart {
  description: string;
  required?: boolean;
  /** The field may repeat (`photos[]`) or be indexed (`file1`, `file2`, …; say so in the description). */
  multiple?: boolean;
  /** Accepted content types, for the document only (the handler checks what it takes). */
  contentTypes?: string[];
}

/** One documented answer. A JSON body has a zod `schema`; a binary or HTML body names its `contentType`. */
export interface ResponseSpec {
  description: string;
  schema?: z.ZodType;
  /** Default `application/json`. */
  contentType?: string;
  /** Response headers worth documenting (name → description). */
  headers?: Record<string, string>;
}

/** Error statuses an operation answers, each with when (the body is always the error body). */
export type ErrorStatus = 400 | 401 | 403 | 404 | 405 | 409 | 413 | 415 | 416 | 429 | 500 | 502 | 503 | 504;

/** How the MCP daemon maps the operation to a tool. */
export interface McpHints {
  /** No tool for this operation (browser redirects, the documents themselves). */
  exclude?: boolean;
  /** Tool name when snake_case of the id is not right. */
  name?: string;
  /**
   * For each multipart file field: how an agent passes it. `url`: the JSON field of the same
   * name takes a public URL (the endpoint accepts URLs in place of files); `base64`: the tool
   * takes `{ filename, content_type, data }` and sends it as a file part.
   */
  files?: Record<string, Array<'url' | 'base64'>>;
  /** The response is binary: the tool answers with a download link or a resource instead. */
  binaryResponse?: boolean;
  /** Read-only operation (tool annotation `readOnlyHint`); default: method is GET. */
  readOnly?: boolean;
  /** Destructive operation (tool annotation `destructiveHint`); default: method is DELETE. */
  destructive?: boolean;
}

/** Zod object schemas for each part of a request; field schemas carry `.describe()` text. */
type Fields = z.ZodObject;

export interface Operation {
  /** camelCase and stable: the operationId and the basis of the MCP tool name. */
  id: string;
  method: HttpMethod;
  /**
   * Path under `/api`, OpenAPI style: `/svc/users/{username}` (the `svc` segment stands for the
   * configured namespace, as in the spec) or `/upload` (no namespace).
   */
  path: string;
  tags: string[];
  summary: string;
  /** Written for an agent: when to use it, what it returns, the common errors. */
  description: string;
  auth: AuthScheme;
  params?: Fields;
  query?: Fields;
  /** Text fields of a JSON, urlencoded or multipart body. */
  body?: Fields;
  /** Body encodings accepted; default `['json']` when there is a body (the edge reads all three anyway). */
  bodyTypes?: Array<'json' | 'form' | 'multipart'>;
  /** Binary parts of a multipart body. */
  files?: Record<string, FilePart>;
  /** Success answers by status. */
  responses: Partial<Record<200 | 201 | 202 | 204 | 206 | 302, ResponseSpec>>;
  /** Error answers by status, each with when it happens. 401 and 429 are added for `apiKey` operations. */
  errors?: Partial<Record<ErrorStatus, string>>;
  mcp?: McpHints;
}

/** Declares an operation, keeping its literal schema types for `mount`'s typed input. */
export const operation = <const O extends Operation>(op: O): O => op;

type Out<S> = S extends z.ZodType ? z.output<S> : Record<string, never>;

/** What the edge parsed, typed from the declaration. */
export interface OperationInput<O extends Operation> {
  params: Out<O['params']>;
  query: Out<O['query']>;
  body: Out<O['body']>;
}

/** Statuses a request field can be refused with at the edge (a wrong or missing field, a network it cannot use). */
type EdgeStatus = 400 | 404 | 503;
/** A registered code the edge may answer a refused field with (core/domain/error-codes.ts). */
export type EdgeErrorCode = CodeWithStatus<EdgeStatus>;

export const ERROR_CODE_KEY = 'x-error-code';

/**
 * What a field declares beyond its type, kept by the schema's definition: zod's describe() and
 * meta() copy a schema but share its definition, so a description added later keeps them.
 */
interface FieldRefusal {
  code?: EdgeErrorCode;
  rule?: FieldRule;
}
const REFUSALS = new WeakMap<object, FieldRefusal>();
const declare = <S extends z.ZodType>(schema: S, refusal: FieldRefusal): S => {
  // A copy with its own definition: a shared schema (Platform, …) keeps no rule of one field.
  const copy = schema.clone({ ...schema.def } as S['def']) as S;
  const meta = schema.meta();
  const own = (meta ? copy.meta(meta) : copy) as S;
  REFUSALS.set(own.def, { ...REFUSALS.get(schema.def), ...refusal });
  return own;
};

/**
 * A field refused with its own code and message: when it is the first offending field of its part
 * (declaration order), the edge answers with `code` (its registered status) and the issue's
 * message as written (zod's `error:`), instead of the generic `invalid_request` listing every field.
 */
export function refusedAs<S extends z.ZodType>(code: EdgeErrorCode, schema: S): S {
  return declare(schema, { code });
}

/**
 * One rule of a field refused with its own code (a refinement's options): reddit answers 503
 * `reddit_unavailable` where the rest of the field would answer 400.
 */
export const refusal = (code: EdgeErrorCode, message: string) => ({ error: message, params: { [ERROR_CODE_KEY]: code } });

/**
 * A domain rule of a field: returns the value as the rule reads it (the schema then checks that),
 * throws the core's HeraldError (its status, code and message) when the value is refused.
 */
export type FieldRule = (value: unknown, fields: Record<string, unknown>) => unknown;

/**
 * A field whose domain rule lives in the core (core/domain: a profile username, ui_labels, a
 * week day, …): the edge runs the rule on the value before the schema and answers what it throws
 * as the core would (same status, code and message); the schema then checks what the rule read.
 * The core may keep calling the same rule as its invariant.
 */
export function ruledBy<S extends z.ZodType>(rule: FieldRule, schema: S): S {
  return declare(schema, { rule });
}

/**
 * A query value the core reads with `rule` (a filter, a date, a comma list): the edge runs the
 * rule on a value that is sent and not empty, answering what it throws as the core would, and
 * passes the text on as sent.
 */
export function queryRuledBy(rule: (value: string) => unknown, description: string): z.ZodOptional<z.ZodString> {
  return ruledBy((v) => {
    if (typeof v === 'string' && v !== '') rule(v);
    return v;
  }, z.string().optional().describe(description));
}

/** What a field declares, on itself or inside its optional/default/nullable wrappers. */
export function refusalOf(field: z.ZodType | undefined): FieldRefusal {
  const found: FieldRefusal = {};
  for (let schema = field; schema; schema = unwrapped(schema)) {
    const own = REFUSALS.get(schema.def);
    found.code ??= own?.code;
    found.rule ??= own?.rule;
  }
  return found;
}

/** The schema inside an optional, nullable, default or pipe (its input side), if any. */
export function unwrapped(schema: z.ZodType): z.ZodType | undefined {
  const def = schema.def as { innerType?: z.ZodType; in?: z.ZodType };
  return def.innerType ?? def.in;
}
