import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/**
 * Every relative link in README.md and docs/**\/*.md points at a file or folder of the checkout,
 * and every `#anchor` into a markdown page at one of its headings (GitHub's slugs).
 */
const ROOT = join(__dirname, '..', '..');

/** Pages another branch is writing: linked already, checked as soon as they exist. */
const PENDING = new Set(['docs/benchmarks/scale.md']);

function markdownFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) return markdownFiles(path);
    return name.endsWith('.md') ? [path] : [];
  });
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const heading = !fenced && /^#{1,6}\s+(.*)$/.exec(line);
    if (!heading) continue;
    const base = heading[1]!.trim().toLowerCase().replace(/`/g, '').replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n ? `${base}-${n}` : base);
  }
  return out;
}

/** Links outside code: `[text](target)`, without external URLs and mail links. */
function linksOf(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!).filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t));
}

describe('documentation links', () => {
  const files = ['README.md', ...markdownFiles('docs')];

  it('finds the pages', () => {
    expect(files).toEqual(expect.arrayContaining(['README.md', join('docs', 'README.md'), join('docs', 'configuration.md'), join('docs', 'api-reference.md')]));
  });

  for (const file of files) {
    it(`${file}: every relative link resolves`, () => {
      const broken: string[] = [];
      const text = readFileSync(join(ROOT, file), 'utf8');
      for (const link of linksOf(text)) {
        const [pathPart, anchor] = link.split('#') as [string, string | undefined];
        const target = pathPart ? join(dirname(file), decodeURIComponent(pathPart)) : file;
        const fromRoot = relative(ROOT, join(ROOT, target)).split('\\').join('/');
        if (!existsSync(join(ROOT, target))) {
          if (!PENDING.has(fromRoot)) broken.push(`${link} (no file ${fromRoot})`);
          continue;
        }
        if (anchor && target.endsWith('.md') && !anchorsOf(readFileSync(join(ROOT, target), 'utf8')).has(anchor)) {
          broken.push(`${link} (no heading #${anchor} in ${fromRoot})`);
        }
      }
      expect(broken).toEqual([]);
    });
  }

  it('checks links for real: a missing file and a missing anchor are caught', () => {
    expect(linksOf('see [a](nowhere.md#x), `[b](code.md)` and [c](https://example.com)')).toEqual(['nowhere.md#x']);
    expect(anchorsOf('# Media library and lookups\n## `apps/web` page\n## Media library and lookups')).toEqual(new Set(['media-library-and-lookups', 'appsweb-page', 'media-library-and-lookups-1']));
  });
});
