import { postRefOf, type CallContext, type PlatformAdapter, type PublishOutcome } from '../../core/ports/platform';

/**
 * A first comment as the engine posts it (comments.create on the published post), answered in the
 * flat shape the per-network tests assert on: the comment id ('' when skipped) and any warnings.
 */
export async function postFirstComment(
  adapter: PlatformAdapter, ctx: CallContext, input: { post: Pick<PublishOutcome, 'postId' | 'url' | 'extra'> & { warnings?: string[] }; text: string },
): Promise<{ commentId: string; warnings?: string[] }> {
  const created = await adapter.comments!.create(ctx, { post: postRefOf({ ...input.post, warnings: [] }), text: input.text });
  return { commentId: created.comment?.id ?? '', ...(created.warnings ? { warnings: created.warnings } : {}) };
}
