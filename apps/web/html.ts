import { pagePolicy, SECURITY_HEADERS } from '../shared/security-headers';

/** HTML text: every value put into the page goes through `esc` (text and attribute values alike). */
export const esc = (value: unknown): string =>
  String(value ?? '').replace(/[&<>"'`]/g, (c) => `&#${c.charCodeAt(0)};`);

/** A trusted HTML fragment (built only from escaped values and literals). */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

/** Tagged template: interpolated values are escaped unless they are Html (or arrays of Html). */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0]!;
  values.forEach((value, i) => {
    out += render(value) + strings[i + 1]!;
  });
  return new Html(out);
}

function render(value: unknown): string {
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === undefined || value === null || value === false) return '';
  return esc(value);
}

/** An http(s) URL safe for href/src, else undefined (javascript:, data: and the like are dropped). */
export function safeUrl(value: string | undefined): string | undefined {
  if (!value) return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : undefined;
  } catch {
    return undefined;
  }
}

const STYLE = `
:root{--fg:#1c2330;--muted:#5b6475;--line:#dde2ea;--bg:#f5f7fa;--card:#fff;--accent:#2456d6;--ok:#177245;--warn:#9a5b00;--bad:#b3261e}
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
main{max-width:880px;margin:0 auto;padding:24px 16px 48px}
header.top{display:flex;gap:16px;align-items:center;flex-wrap:wrap;margin-bottom:8px}
header.top img{max-height:56px;max-width:160px}
h1{font-size:1.6rem;margin:0}
h2{font-size:1.15rem;margin:0}
p.lead{color:var(--muted);margin:4px 0 20px}
nav.tabs{display:flex;gap:8px;margin:8px 0 20px;flex-wrap:wrap}
nav.tabs a{padding:6px 14px;border-radius:999px;border:1px solid var(--line);color:var(--fg);text-decoration:none;background:var(--card)}
nav.tabs a[aria-current=page]{background:var(--accent);border-color:var(--accent);color:#fff}
.notice{padding:10px 14px;border-radius:8px;margin:0 0 16px;border:1px solid}
.notice.ok{background:#e9f6ef;border-color:#b6e0c8;color:var(--ok)}
.notice.bad{background:#fdecea;border-color:#f3c1bc;color:var(--bad)}
ul.platforms{list-style:none;margin:0;padding:0;display:grid;gap:12px}
li.platform{background:var(--card);border:1px solid var(--line);border-radius:12px;padding:14px 16px}
.row{display:flex;gap:12px;align-items:center;flex-wrap:wrap}
.row .grow{flex:1 1 200px;min-width:0}
.avatar{width:44px;height:44px;border-radius:50%;object-fit:cover;background:var(--line)}
.badge{display:inline-block;font-size:.8rem;padding:2px 8px;border-radius:999px;border:1px solid var(--line);color:var(--muted)}
.badge.connected{color:var(--ok);border-color:#b6e0c8;background:#e9f6ef}
.badge.reauth_required{color:var(--warn);border-color:#f1d39a;background:#fff6e5}
.handle{color:var(--muted);overflow-wrap:anywhere}
button,.button{font:inherit;padding:8px 16px;border-radius:8px;border:1px solid var(--accent);background:var(--accent);color:#fff;cursor:pointer;text-decoration:none;display:inline-block}
button.secondary{background:var(--card);color:var(--accent)}
button.danger{background:var(--card);color:var(--bad);border-color:var(--bad)}
button:focus-visible,a:focus-visible,input:focus-visible,select:focus-visible{outline:3px solid #99b4ff;outline-offset:2px}
form.inline{display:inline}
fieldset{border:1px solid var(--line);border-radius:8px;margin:12px 0 0;padding:12px}
label{display:block;font-size:.9rem;margin:8px 0 4px}
input[type=text],input[type=password],input[type=url],input[type=datetime-local]{font:inherit;width:100%;max-width:420px;padding:8px;border:1px solid #b9c1cf;border-radius:6px}
.hint{color:var(--muted);font-size:.85rem;margin:2px 0 0}
footer.redirect{margin-top:28px}
.cal-head{display:flex;gap:8px;align-items:center;flex-wrap:wrap;margin-bottom:12px}
.cal-head .grow{flex:1}
table.cal{width:100%;border-collapse:collapse;table-layout:fixed;background:var(--card)}
table.cal th{font-size:.85rem;color:var(--muted);padding:6px;border:1px solid var(--line);text-align:left}
table.cal td{vertical-align:top;border:1px solid var(--line);padding:6px;height:90px;overflow-wrap:anywhere}
table.cal td.other{background:#fafbfc;color:#9aa3b2}
table.cal td.other .daynum{color:#a7afbd}
.daynum{font-size:.8rem;color:var(--muted)}
article.post{border-left:3px solid var(--accent);background:#f3f6ff;border-radius:6px;padding:6px 8px;margin:6px 0;font-size:.85rem}
article.post.published{border-color:var(--ok);background:#eef8f2}
article.post.failed,article.post.partial{border-color:var(--bad);background:#fdf0ef}
article.post.queued{border-color:#7a4fd6;background:#f4efff}
article.post ul{margin:4px 0;padding-left:16px}
article.post details{margin-top:4px}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
@media (max-width:640px){
  table.cal thead{display:none}
  table.cal,table.cal tbody,table.cal tr,table.cal td{display:block;width:100%}
  table.cal td{height:auto;min-height:0}
  table.cal td.empty{display:none}
  h1{font-size:1.3rem}
}
`;

/** The page around `body`: language, viewport for phones, no script at all (CSP), inline style only. */
export function layout(opts: { lang: string; title: string; body: Html }): string {
  return `<!doctype html><html lang="${esc(opts.lang)}"><head><meta charset="utf-8">`
    + '<meta name="viewport" content="width=device-width,initial-scale=1">'
    + '<meta name="referrer" content="no-referrer">'
    + `<title>${esc(opts.title)}</title><style>${STYLE}</style></head><body><main>${opts.body.text}</main></body></html>`;
}

/** Headers of every page: no script runs (labels, titles and handles can never become code), no framing, no caching. */
export const PAGE_SECURITY_HEADERS: Record<string, string> = {
  ...SECURITY_HEADERS,
  'Content-Security-Policy': pagePolicy({ 'style-src': "'unsafe-inline'", 'img-src': 'http: https: data:', 'script-src': "'none'" }),
  'Cache-Control': 'no-store',
};
