/** A plain-text table: columns padded to their widest cell, a header line, then one line per row. */
export function table(rows: Array<Record<string, unknown>>, columns: string[]): string {
  const cell = (v: unknown): string => (v === undefined || v === null ? '-' : v instanceof Date ? v.toISOString() : String(v)).replace(/\s+/g, ' ');
  const cells = rows.map((r) => columns.map((c) => cell(r[c])));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((r) => r[i]!.length)));
  const line = (values: string[]) => values.map((v, i) => (i === values.length - 1 ? v : v.padEnd(widths[i]!))).join('  ').trimEnd();
  return [line(columns.map((c) => c.toUpperCase())), ...cells.map(line)].join('\n');
}

/** `24h`, `7d`, `30m` before now, or an ISO date. */
export function sinceOf(raw: string, now: Date): Date {
  const rel = /^(\d+)([mhd])$/.exec(raw.trim());
  if (rel) return new Date(now.getTime() - Number(rel[1]) * { m: 60_000, h: 3_600_000, d: 86_400_000 }[rel[2] as 'm' | 'h' | 'd']);
  const at = new Date(raw);
  if (Number.isNaN(at.getTime())) throw new Error(`--since must be a duration (30m, 24h, 7d) or an ISO date, got "${raw}"`);
  return at;
}
