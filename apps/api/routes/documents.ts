import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import path from 'node:path';
import type Router from '@koa/router';
import { notFound } from '../../../core/domain/errors';
import { OPERATIONS } from '../catalogue';
import { mount } from '../catalogue/mount';
import { openApiDocument } from '../catalogue/openapi';
import * as ops from '../catalogue/documents';
import { pagePolicy } from '../../shared/security-headers';

/** The bundled, offline Swagger UI (swagger-ui-dist): the page loads nothing from elsewhere. */
const SWAGGER_DIR = path.dirname(require.resolve('swagger-ui-dist/package.json'));
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'index.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

/** The page's one inline script: Swagger UI started on the generated document. */
const initScript = (documentUrl: string) => `
window.ui = SwaggerUIBundle({ url: ${JSON.stringify(documentUrl)}, dom_id: '#swagger-ui', deepLinking: true, validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], layout: 'StandaloneLayout' });
`;

/**
 * The page's policy: scripts and styles from this API only (plus the init script, by its hash,
 * and the inline styles Swagger UI sets), the document and "Try it out" requests to this API and
 * to its public address, images inline or from here.
 */
const pageCsp = (init: string, publicBaseUrl: string) => pagePolicy({
  'script-src': `'self' 'sha256-${createHash('sha256').update(init).digest('base64')}'`,
  'style-src': "'self' 'unsafe-inline'",
  'img-src': "'self' data:",
  'connect-src': `'self' ${new URL(publicBaseUrl).origin}`,
});

const page = (init: string, docsUrl: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Herald API reference</title>
<link rel="stylesheet" href="${docsUrl}/swagger-ui.css">
<link rel="stylesheet" href="${docsUrl}/index.css">
<link rel="icon" type="image/png" href="${docsUrl}/favicon-32x32.png" sizes="32x32">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${docsUrl}/swagger-ui-bundle.js"></script>
<script src="${docsUrl}/swagger-ui-standalone-preset.js"></script>
<script>${init}</script>
</body>
</html>
`;

/** GET /api/openapi.json, GET /api/docs and its assets: no API key (registered before authentication). */
export function documentRoutes(open: Router, ns: string, publicBaseUrl: string): void {
  let document: string | undefined;
  mount(open, ops.getOpenApiDocument, ns, async (ctx) => {
    // A body sent with the GET is read (and ignored) first: answering the large document while the
    // client still writes resets the connection before the answer arrives.
    for await (const _chunk of ctx.req) { /* drained */ }
    document ??= JSON.stringify(openApiDocument(OPERATIONS, { namespace: ns, publicBaseUrl }));
    ctx.type = 'application/json';
    ctx.body = document;
  });
  const init = initScript('/api/openapi.json');
  const csp = pageCsp(init, publicBaseUrl);
  mount(open, ops.getReferencePage, ns, (ctx) => {
    ctx.type = 'html';
    ctx.set('Cache-Control', 'no-cache');
    ctx.set('Content-Security-Policy', csp);
    ctx.body = page(init, '/api/docs');
  });
  mount(open, ops.getReferencePageAsset, ns, (ctx, { params }) => {
    const asset = String(params.asset);
    const type = Object.hasOwn(ASSETS, asset) ? ASSETS[asset] : undefined;
    if (!type) throw notFound(`No asset ${asset.slice(0, 64)} of the reference page.`);
    ctx.type = type;
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.body = createReadStream(path.join(SWAGGER_DIR, asset));
  });
}
