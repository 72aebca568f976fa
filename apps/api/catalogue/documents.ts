import { z } from 'zod';
import { operation } from './types';

/** The API's own documents: the OpenAPI document and the reference page (no API key). */

export const getOpenApiDocument = operation({
  id: 'getOpenApiDocument', method: 'get', path: '/openapi.json', tags: ['documentation'],
  summary: 'OpenAPI document',
  description: 'This API as an OpenAPI 3.1 document (version 1.0.0), generated from the operation catalogue. No API key.',
  auth: 'none',
  responses: { 200: { description: 'The document.', schema: z.looseObject({ openapi: z.literal('3.1.0') }) } },
  mcp: { exclude: true },
});

export const getReferencePage = operation({
  id: 'getReferencePage', method: 'get', path: '/docs', tags: ['documentation'],
  summary: 'Reference page',
  description: 'A browsable reference of this API (Swagger UI, served from the bundled copy: no external requests). No API key.',
  auth: 'none',
  responses: { 200: { description: 'The page.', contentType: 'text/html' } },
  mcp: { exclude: true },
});

export const getReferencePageAsset = operation({
  id: 'getReferencePageAsset', method: 'get', path: '/docs/{asset}', tags: ['documentation'],
  summary: 'Reference page asset',
  description: 'The scripts, styles and icons of the reference page. No API key.',
  auth: 'none',
  params: z.object({ asset: z.string().describe('swagger-ui-bundle.js, swagger-ui.css, favicon-32x32.png, …') }),
  responses: { 200: { description: 'The file.', contentType: 'application/octet-stream' } },
  errors: { 404: 'No such asset.' },
  mcp: { exclude: true },
});

export const documentOperations = [getOpenApiDocument, getReferencePage, getReferencePageAsset];
