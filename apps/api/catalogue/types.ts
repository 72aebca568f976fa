import { z } from 'zod';

/**
 * One REST operation, declared once: the edge validates requests with it (mount.ts), the OpenAPI
 * document is generated from it (openapi.ts), and the MCP daemon builds its tools from it.
 */
export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * The credential an operation takes. `apiKey`: `Authorization: Apikey <key>` (or `Bearer <key>`);
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

/** What the edge parsed, typed from the declaration (fields checked by the core stay raw). */
export interface OperationInput<O extends Operation> {
  params: Out<O['params']>;
  query: Out<O['query']>;
  body: Out<O['body']>;
}

const CHECKED_BY = 'x-checked-by';

/**
 * A field whose type is documented but checked by the handler or the core, whose message is more
 * specific than a schema's (the edge lets any value through; the document shows the type).
 */
export function checkedByCore<S extends z.ZodType>(schema: S): S {
  return schema.meta({ ...(schema.meta() ?? {}), [CHECKED_BY]: 'core' }) as S;
}

export function isCheckedByCore(schema: z.ZodType): boolean {
  return (schema.meta() as Record<string, unknown> | undefined)?.[CHECKED_BY] === 'core';
}
