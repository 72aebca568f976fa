import { invalidInput } from '../../core/domain/errors';

/** Deeper than any request the spec describes (queue slots are 3 levels). */
const MAX_DEPTH = 16;

/**
 * What the document store cannot hold, refused at the edge with the field to fix instead of a 500
 * from the database: a NUL in any text (PostgreSQL under FerretDB refuses U+0000), field names
 * that start with `$`, contain `.` or a NUL (MongoDB and FerretDB reserve them), and nesting
 * deeper than MAX_DEPTH. Requests keep their fields (scheduled posts store them to publish later).
 */
export function checkStorable(value: unknown, opts: { names: boolean } = { names: true }, field = '', depth = 0): void {
  if (typeof value === 'string') {
    const at = value.indexOf('\u0000');
    if (at >= 0) {
      const problem = `text cannot contain U+0000 (NUL); found at position ${at + 1}: remove it`;
      throw invalidInput(`${field || '(body)'}: ${problem}.`, { violations: [{ field: field || '(body)', message: problem }] }, 'invalid_character');
    }
    return;
  }
  if (!value || typeof value !== 'object') return;
  if (depth >= MAX_DEPTH) {
    throw invalidInput(`${field}: nested more than ${MAX_DEPTH} levels deep; send a flatter body.`, { violations: [{ field, message: `more than ${MAX_DEPTH} levels` }] }, 'body_too_deep');
  }
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  for (const [key, child] of entries) {
    const path = Array.isArray(value) ? `${field}[${key}]` : field ? `${field}.${key}` : key;
    if (!Array.isArray(value) && (key.includes('\u0000') || (opts.names && (key.startsWith('$') || key.includes('.'))))) {
      const problem = 'field names cannot start with "$" or contain "." or U+0000 (NUL)';
      throw invalidInput(`${JSON.stringify(path)}: ${problem}.`, { violations: [{ field: path, message: problem }] }, 'invalid_field_name');
    }
    checkStorable(child, opts, path, depth + 1);
  }
}
