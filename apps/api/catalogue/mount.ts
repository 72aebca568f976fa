import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import type { Next } from 'koa';
import { z } from 'zod';
import { invalidInput } from '../../../core/domain/errors';
import { readBody } from '../body';
import { single } from '../input';
import { isCheckedByCore, type Operation, type OperationInput } from './types';
import type { Caller } from '../../../core/usecases/authenticate';

/** `/svc/users/{username}` → `/api/<ns>/users/:username` (Koa's path syntax). */
export function koaPath(op: Pick<Operation, 'path'>, ns: string): string {
  return `/api${op.path.replace(/^\/svc(?=\/|$)/, `/${ns}`)}`.replace(/\{([^}]+)\}/g, ':$1');
}

/** `/svc/users/{username}` → `/api/<ns>/users/{username}` (the document's path syntax). */
export function documentPath(op: Pick<Operation, 'path'>, ns: string): string {
  return `/api${op.path.replace(/^\/svc(?=\/|$)/, `/${ns}`)}`;
}

/**
 * The schema the edge checks: the declared one without the fields left to the core, and never
 * refusing a field it does not know (the use cases ignore or check those themselves).
 */
const edgeSchemas = new WeakMap<z.ZodObject, z.ZodObject>();
function edgeSchema(declared: z.ZodObject): z.ZodObject {
  let found = edgeSchemas.get(declared);
  if (!found) {
    const shape = Object.fromEntries(Object.entries(declared.shape).map(([name, field]) => [name, isCheckedByCore(field as z.ZodType) ? z.any().optional() : field]));
    found = z.looseObject(shape);
    edgeSchemas.set(declared, found);
  }
  return found;
}

const WHERE = { params: 'path parameter', query: 'query parameter', body: 'body field' } as const;

/**
 * Parses one part of the request; a failure answers 400 `invalid_request` naming every offending
 * field and what to fix, with the same message and `violations[]` as input.ts's `parse` (each
 * violation also says where the field was sent: path parameter, query parameter or body field).
 */
function check(part: keyof typeof WHERE, declared: z.ZodObject | undefined, value: Record<string, unknown>): Record<string, unknown> {
  if (!declared) return value;
  const result = edgeSchema(declared).safeParse(value);
  if (result.success) return result.data as Record<string, unknown>;
  const violations = result.error.issues.map((issue) => ({ field: issue.path.join('.') || '(body)', in: WHERE[part], message: issue.message }));
  throw invalidInput(violations.map((v) => `${v.field}: ${v.message}`).join('; '), { violations });
}

/** Query values as one value per name (the last of a repeated one), except for declared arrays. */
function queryOf(ctx: RouterContext, declared: z.ZodObject | undefined): Record<string, unknown> {
  return Object.fromEntries(Object.entries(ctx.query).map(([k, v]) => {
    const field = declared && Object.hasOwn(declared.shape, k) ? declared.shape[k] as z.ZodType : undefined;
    const wantsArray = field?.def.type === 'array' || (field?.def.type === 'optional' && (field as z.ZodOptional<z.ZodType>).unwrap().def.type === 'array');
    return [k, wantsArray ? (Array.isArray(v) ? v : [v]) : single(v)];
  }));
}

/**
 * Validates path, query and body against the operation before the handler runs; the handler gets
 * what was parsed. A body that could not be read is not answered here: the handler reads it and
 * answers in its own order (reddit first on the uploads, …), as before the catalogue.
 */
export function validateInput(op: Operation, ctx: RouterContext): OperationInput<Operation> {
  const params = check('params', op.params, { ...ctx.params });
  const query = check('query', op.query, queryOf(ctx, op.query));
  let raw: Record<string, unknown> | undefined;
  try {
    raw = op.body ? readBody(ctx) : undefined;
  } catch {
    raw = undefined;
  }
  const body = raw === undefined ? {} : check('body', op.body, raw);
  return { params, query, body } as OperationInput<Operation>;
}

type AnyRouter = Router<any, any>;

export type OperationHandler<O extends Operation, S> = (ctx: RouterContext<S>, input: OperationInput<O>, next: Next) => unknown;

/**
 * Registers a declared operation on a router: the route's method and path come from the
 * declaration (named by its id), its input is checked before the handler runs.
 */
/** The state of an authenticated request (apps/api/deps.ts AppState, not imported: deps imports the routes). */
type AuthenticatedState = { caller: Caller };

export function mount<O extends Operation, S = AuthenticatedState>(router: AnyRouter, op: O, ns: string, handler: OperationHandler<O, S>): void {
  router.register(koaPath(op, ns), [op.method.toUpperCase()], async (ctx: RouterContext<S>, next: Next) => {
    const input = validateInput(op, ctx as RouterContext) as OperationInput<O>;
    return handler(ctx, input, next);
  }, { name: op.id });
}
