import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import Router from '@koa/router';
import { z } from 'zod';
import { ok } from '../../apps/api/catalogue/common';
import { operation } from '../../apps/api/catalogue/types';
import { responseChecks, responseProblem } from '../../apps/api/catalogue/response-check';

/** HERALD_CHECK_RESPONSES: an answer outside its operation's declaration fails the request that got it. */
const getThing = operation({
  id: 'getThing', method: 'get', path: '/svc/thing', tags: ['test'], summary: 'A thing', description: 'A thing.', auth: 'none',
  responses: { 200: { description: 'The thing.', schema: ok({ count: z.number(), name: z.string().nullable() }) } },
});

describe('checking answers against the catalogue', () => {
  it('accepts a body its schema takes, extra fields included', () => {
    expect(responseProblem(getThing, 200, { success: true, count: 3, name: null, extra: 'kept' })).toBeUndefined();
  });

  it('names every field a body gets wrong', () => {
    expect(responseProblem(getThing, 200, { success: true, count: '3' })).toBe('count: Invalid input: expected number, received string; name: Invalid input: expected string, received undefined');
  });

  it('refuses a success status the operation does not declare, and a text body where JSON was declared', () => {
    expect(responseProblem(getThing, 201, { success: true, count: 1, name: 'a' })).toBe('status 201 is not among the declared answers (200)');
    expect(responseProblem(getThing, 200, 'hello')).toBe('a JSON body was declared, the answer is text');
  });

  it('turns a mismatching answer into 500 response_schema_mismatch and logs it; a matching one passes unchanged', async () => {
    const logged: string[] = [];
    const app = new Koa();
    const router = new Router();
    let body: unknown = { success: true, count: 1, name: 'a' };
    router.register('/api/herald/thing', ['GET'], (ctx) => { ctx.body = body; }, { name: 'getThing' });
    app.use(responseChecks([getThing], (message, fields) => { logged.push(`${message} ${String(fields.operation)}`); }));
    app.use(router.routes());
    const server = http.createServer(app.callback()).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/herald/thing`;
    try {
      const good = await fetch(url);
      expect([good.status, await good.json()]).toEqual([200, { success: true, count: 1, name: 'a' }]);
      body = { success: true, count: 'one', name: 'a' };
      const bad = await fetch(url);
      expect([bad.status, await bad.json()]).toEqual([500, {
        success: false, error_code: 'response_schema_mismatch',
        message: 'getThing (GET /svc/thing) answered 200 outside its declaration: count: Invalid input: expected number, received string',
      }]);
      expect(logged).toEqual(['response schema mismatch getThing']);
    } finally {
      server.close();
    }
  });
});
