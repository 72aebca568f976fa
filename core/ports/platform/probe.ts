import type { CallContext } from './context';

/**
 * Asks the network whether an account works, with a cheap read as that account (Instagram and
 * Threads checkpoints). Resolves when it does; throws the adapter's PlatformError otherwise: kind
 * `checkpoint` while the network still demands one.
 */
export interface AccountProbe {
  probe(ctx: CallContext): Promise<void>;
}
