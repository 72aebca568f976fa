import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { renderApiReference } from './api-reference';
import { renderConfiguration } from './configuration';
import { renderErrorCodes } from './error-codes';

/**
 * `npm run docs`: writes the generated pages. test/unit/docs-generated.test.ts fails when the
 * committed files differ from what this produces.
 */
export const GENERATED_DOCS: ReadonlyArray<{ path: string; render: () => string }> = [
  { path: 'docs/configuration.md', render: renderConfiguration },
  { path: 'docs/api-reference.md', render: renderApiReference },
  { path: 'docs/error-codes.md', render: renderErrorCodes },
];

function main(): void {
  // dist/apps/docs/main.js or apps/docs/main.ts: the checkout is three levels up from dist, two from source.
  const root = resolve(__dirname, __dirname.includes(`${join('dist', 'apps')}`) ? '../../..' : '../..');
  for (const doc of GENERATED_DOCS) {
    const file = join(root, doc.path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, doc.render());
    process.stdout.write(`wrote ${doc.path}\n`);
  }
}

if (require.main === module) main();
