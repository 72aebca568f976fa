/** LinkedIn's REST error body `{status, serviceErrorCode, code, message}` (OAuth answers are the kit's `{error, error_description}`). */
import type { ServerResponse } from 'node:http';
import { sendJson } from '../kit/http';

export const restError = (res: ServerResponse, status: number, code: string, message: string, serviceErrorCode?: number) =>
  sendJson(res, status, { status, ...(serviceErrorCode !== undefined ? { serviceErrorCode } : {}), code, message });
export const invalidField = (res: ServerResponse, path: string, message: string) =>
  restError(res, 422, 'UNPROCESSABLE_ENTITY', `ERROR :: ${path} :: ${message}`);
export const badRequest = (res: ServerResponse, message: string) => restError(res, 400, 'ILLEGAL_ARGUMENT', message);
export const notFound = (res: ServerResponse, what: string) => restError(res, 404, 'NOT_FOUND', `${what} not found`);
export const accessDenied = (res: ServerResponse, what: string, version = 'unknown') =>
  restError(res, 403, 'ACCESS_DENIED', `Not enough permissions to access: ${what}.${version}`, 100);
