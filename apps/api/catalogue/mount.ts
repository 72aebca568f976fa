import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import type { Next } from 'koa';
import { z } from 'zod';
import { ERROR_CODES } from '../../../core/domain/error-codes';
import { HeraldError, invalidInput, KIND_STATUS, type HeraldErrorKind } from '../../../core/domain/errors';
import { readBody } from '../body';
import { checkIdFields } from '../ids';
import { single } from '../input';
import { checkStorable } from '../storable';
import { ERROR_CODE_KEY, refusalOf, type EdgeErrorCode, type Operation, type OperationInput } from './types';
import type { Caller } from '../../../core/usecases/authenticate';

/** `/svc/users/{username}` → `/api/<ns>/users/:username` (Koa's path syntax). */
export function koaPath(op: Pick<Operation, 'path'>, ns: string): string {
  return `/api${op.path.replace(/^\/svc(?=\/|$)/, `/${ns}`)}`.replace(/\{([^}]+)\}/g, ':$1');
}

/** `/svc/users/{username}` → `/api/<ns>/users/{username}` (the document's path syntax). */
export function documentPath(op: Pick<Operation, 'path'>, ns: string): string {
  return `/api${op.path.replace(/^\/svc(?=\/|$)/, `/${ns}`)}`;
}

const WHERE = { params: 'path parameter', query: 'query parameter', body: 'body field' } as const;

/** The HeraldError of a registered code: its kind is the one of the code's status. */
function refusedWith(code: EdgeErrorCode, message: string, violation: Record<string, unknown>): HeraldError {
  const spec = ERROR_CODES[code as keyof typeof ERROR_CODES] as { status?: number | readonly number[] } | undefined;
  const status = [spec?.status ?? 400].flat()[0];
  const kind = (Object.keys(KIND_STATUS) as HeraldErrorKind[]).find((k) => KIND_STATUS[k] === status) ?? 'invalid_input';
  return new HeraldError(kind, message, code as never, kind === 'invalid_input' ? { violations: [violation] } : {});
}

/** One offending field: the error its rule threw, or the schema's issues (paths from the part). */
export type Failure = { error: HeraldError } | { issues: z.core.$ZodIssue[]; code?: EdgeErrorCode };

/** Checks one declared field of a part (`fields`: the whole part, which a rule may read): its value as parsed, or why it is refused. */
export function checkField(name: string, field: z.ZodType, fields: Record<string, unknown>): { ok: true; value: unknown } | { ok: false; failure: Failure } {
  const { rule, code } = refusalOf(field);
  let given = fields[name];
  if (rule) {
    try {
      given = rule(given, fields);
    } catch (err) {
      if (!(err instanceof HeraldError)) throw err;
      return { ok: false, failure: { error: err } };
    }
  }
  const result = field.safeParse(given);
  if (result.success) return { ok: true, value: result.data };
  const issues = result.error.issues.map((issue) => ({ ...issue, path: [name, ...issue.path] }));
  const own = (issues[0] as { params?: Record<string, unknown> }).params?.[ERROR_CODE_KEY] as EdgeErrorCode | undefined;
  return { ok: false, failure: { issues, code: own ?? code } };
}

/**
 * Parses one part of the request, field by field in declaration order (a field's rule, then its
 * schema). The first offending field decides the answer: what its rule threw, or the code and
 * message it declares (refusedAs, refusal); else 400 `invalid_request` names every offending field
 * and what to fix, with the same message and `violations[]` as input.ts's `parse` (each violation
 * also says where the field was sent: path parameter, query parameter or body field). Reddit's 503
 * is answered before anything else; then `first` (the body's id checks), then the first field.
 */
function check(part: keyof typeof WHERE, declared: z.ZodObject | undefined, value: Record<string, unknown>, first?: () => void): Record<string, unknown> {
  if (!declared) return value;
  const out: Record<string, unknown> = { ...value };
  const failures: Failure[] = [];
  for (const [name, field] of Object.entries(declared.shape) as Array<[string, z.ZodType]>) {
    const checked = checkField(name, field, value);
    if (!checked.ok) failures.push(checked.failure);
    else if (checked.value !== undefined || Object.hasOwn(value, name)) out[name] = checked.value;
  }
  if (!failures.length) return out;
  const violationOf = (issue: z.core.$ZodIssue) => ({ field: issue.path.join('.') || '(body)', in: WHERE[part], message: issue.message });
  const answer = (failure: Failure): HeraldError | undefined => {
    if ('error' in failure) return failure.error;
    return failure.code ? refusedWith(failure.code, failure.issues[0]!.message, violationOf(failure.issues[0]!)) : undefined;
  };
  const unavailable = failures.map(answer).find((err) => err?.kind === 'unavailable');
  if (unavailable) throw unavailable;
  first?.();
  const head = answer(failures[0]!);
  if (head) throw head;
  const violations = failures.flatMap((f) => ('issues' in f && !f.code ? f.issues.map(violationOf) : []));
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
  // A refused body answers its ids and what the database cannot store first (as the handlers' bodyFields).
  const body = raw === undefined ? {} : check('body', op.body, raw, () => {
    checkIdFields(raw!);
    checkStorable(raw);
  });
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

export function mount<O extends Operation, S = AuthenticatedState>(
  router: AnyRouter, op: O, ns: string, handler: OperationHandler<O, S>,
  /** Runs around the edge's checks and the handler: an operation whose error bodies carry more (the comment action's `error`). */
  around?: (run: () => Promise<unknown>) => Promise<unknown>,
): void {
  router.register(koaPath(op, ns), [op.method.toUpperCase()], async (ctx: RouterContext<S>, next: Next) => {
    const run = async () => handler(ctx, validateInput(op, ctx as RouterContext) as OperationInput<O>, next);
    return around ? around(run) : run();
  }, { name: op.id });
}
