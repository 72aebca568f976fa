import { createReadStream } from 'node:fs';
import path from 'node:path';
import type Router from '@koa/router';
import { notFound } from '../../../core/domain/errors';
import { OPERATIONS } from '../catalogue';
import { mount } from '../catalogue/mount';
import { openApiDocument } from '../catalogue/openapi';
import * as ops from '../catalogue/documents';

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

const page = (documentUrl: string, docsUrl: string) => `<!doctype html>
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
<script>
window.ui = SwaggerUIBundle({ url: ${JSON.stringify(documentUrl)}, dom_id: '#swagger-ui', deepLinking: true, validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], layout: 'StandaloneLayout' });
</script>
</body>
</html>
`;

/** GET /api/openapi.json, GET /api/docs and its assets: no API key (registered before authentication). */
export function documentRoutes(open: Router, ns: string, publicBaseUrl: string): void {
  let document: string | undefined;
  mount(open, ops.getOpenApiDocument, ns, (ctx) => {
    document ??= JSON.stringify(openApiDocument(OPERATIONS, { namespace: ns, publicBaseUrl }));
    ctx.type = 'application/json';
    ctx.body = document;
  });
  mount(open, ops.getReferencePage, ns, (ctx) => {
    ctx.type = 'html';
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = page('/api/openapi.json', '/api/docs');
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
