import type { Context, Middleware, Next } from 'koa';
import { Readable } from 'node:stream';
import type { Operation } from './types';

/**
 * HERALD_CHECK_RESPONSES (the test tiers): every answer of a catalogued operation is checked
 * against what the catalogue declares for it, so that the document the clients read (OpenAPI, the
 * MCP tools, docs/api-reference.md) cannot drift from what the code sends. A success status the
 * operation does not declare, or a JSON body its schema refuses, turns the answer into a 500
 * `response_schema_mismatch` naming the operation and every offending field: the test that made
 * the request fails on it. Error answers are built by one function (http-errors.ts `errorBody`)
 * and checked by its own tests; redirects and binary or HTML bodies have no JSON schema.
 */
export function responseProblem(op: Operation, status: number, body: unknown): string | undefined {
  if (status >= 300 && status !== 304) return undefined;
  const declared = op.responses[status as keyof Operation['responses']];
  if (!declared) return `status ${status} is not among the declared answers (${Object.keys(op.responses).join(', ')})`;
  if (!declared.schema || (declared.contentType && declared.contentType !== 'application/json')) return undefined;
  if (body === undefined || body === null || typeof body === 'string' || Buffer.isBuffer(body) || body instanceof Readable) {
    return status === 204 ? undefined : `a JSON body was declared, the answer is ${body === undefined || body === null ? 'empty' : typeof body === 'string' ? 'text' : 'binary'}`;
  }
  const result = declared.schema.safeParse(body);
  if (result.success) return undefined;
  return result.error.issues.slice(0, 10).map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`).join('; ');
}

export function responseChecks(operations: readonly Operation[], log: (message: string, fields: Record<string, unknown>) => void): Middleware {
  const byId = new Map(operations.map((op) => [op.id, op]));
  return async (ctx: Context, next: Next) => {
    await next();
    const name = (ctx as Context & { _matchedRouteName?: string })._matchedRouteName;
    const op = name === undefined ? undefined : byId.get(name);
    if (!op) return;
    const problem = responseProblem(op, ctx.status, ctx.body);
    if (!problem) return;
    const message = `${op.id} (${op.method.toUpperCase()} ${op.path}) answered ${ctx.status} outside its declaration: ${problem}`;
    log('response schema mismatch', { operation: op.id, status: ctx.status, problem });
    ctx.status = 500;
    ctx.body = { success: false, error_code: 'response_schema_mismatch', message };
  };
}
