import type { Platform } from './platforms';
import type { TargetResult } from './upload';

/** What was done to a published post (spec "Published-post operations"). */
export type PostOperationAction = 'edit' | 'unpublish' | 'repost' | 'save' | 'thumbnail';

/**
 * One operation on a post an upload published. Stored once, never updated (each operation is
 * its own document: FerretDB loses concurrent updates of one document), and folded into the
 * upload's per-platform result when status and history are read.
 */
export interface PostOperation {
  id: string;
  accountId: string;
  requestId: string;
  platform: Platform;
  action: PostOperationAction;
  /** The post acted on. */
  postId: string;
  /** The post after the operation: X's new id after an edit; the repost or the saved pin. */
  resultPostId?: string;
  url?: string;
  /** The request fields an edit changed. */
  updated?: string[];
  /** Where a save went (Pinterest board). */
  boardId?: string;
  at: Date;
}

/**
 * A platform's result as status and history show it after its post operations, oldest first:
 * - edit: `edited_at`, `edit_count`, `updated_fields`; when the network gave the edit a new id (X)
 *   `post_id` and `url` become the new ones, `previous_post_id` the one it replaced and
 *   `edit_history_post_ids` the chain from the published id;
 * - unpublish: `unpublished: true`, `unpublished_at`;
 * - repost / save: `reposts[]` / `saves[]` `{post_id, url?, board_id?, at}`;
 * - thumbnail: `thumbnail_set_at`.
 */
export function withPostOperations(result: TargetResult, operations: readonly PostOperation[]): TargetResult {
  if (!operations.length) return result;
  const out: TargetResult = { ...result };
  const history: string[] = result.post_id ? [result.post_id] : [];
  for (const op of [...operations].sort((a, b) => a.at.getTime() - b.at.getTime())) {
    const at = op.at.toISOString();
    switch (op.action) {
      case 'edit': {
        out.edited_at = at;
        out.edit_count = Number(out.edit_count ?? 0) + 1;
        out.updated_fields = [...new Set([...(out.updated_fields as string[] | undefined ?? []), ...(op.updated ?? [])])];
        if (op.resultPostId && op.resultPostId !== out.post_id) {
          out.previous_post_id = op.postId;
          out.post_id = op.resultPostId;
          history.push(op.resultPostId);
          out.edit_history_post_ids = [...history];
        }
        if (op.url) out.url = op.url;
        break;
      }
      case 'unpublish':
        out.unpublished = true;
        out.unpublished_at = at;
        break;
      case 'repost':
        out.reposts = [...(out.reposts as unknown[] | undefined ?? []), { post_id: op.resultPostId ?? null, ...(op.url ? { url: op.url } : {}), at }];
        break;
      case 'save':
        out.saves = [...(out.saves as unknown[] | undefined ?? []), { post_id: op.resultPostId ?? null, ...(op.boardId ? { board_id: op.boardId } : {}), at }];
        break;
      case 'thumbnail':
        out.thumbnail_set_at = at;
        break;
    }
  }
  return out;
}
