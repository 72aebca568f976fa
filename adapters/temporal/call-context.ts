import type { AsyncLocalStorage } from 'node:async_hooks';
import type { Connection } from '@temporalio/client';

type CallContext = Connection['callContextStorage'] extends AsyncLocalStorage<infer C> ? C : never;

/** The header every namespaced call carries, set by the client's namespace injector. */
const NAMESPACE_HEADER = 'temporal-namespace';

/** A scope that only names the namespace (no deadline, no abort signal, no other header). */
function namespaceOnly(store: CallContext): boolean {
  const keys = Object.keys(store);
  if (keys.length !== 1 || keys[0] !== 'metadata') return false;
  const headers = Object.keys(store.metadata ?? {});
  return headers.length === 1 && headers[0] === NAMESPACE_HEADER;
}

/**
 * @temporalio/client scopes call metadata with an AsyncLocalStorage (`callContextStorage`), and
 * runs every namespaced call inside `run()`. On Node 20 the first `run()` turns async hooks on for
 * the whole process, for good: from then on every promise of every request pays for them
 * (measured here: 500k awaits 103 ms before the first Temporal call, 318 ms after).
 *
 * A namespace scope needs no async propagation: the call's RPC implementation reads the store
 * synchronously when the call is issued, inside `run()`. So this gives those scopes a synchronous
 * store, and keeps the real one for scopes that outlive a synchronous call (`withAbortSignal`,
 * `withDeadline`, other metadata), which it disables again when the last of them has ended. The
 * storage object itself is patched, because the client's RPC implementation holds it.
 */
export function withoutAsyncHooksForNamespaceScopes(connection: Connection): void {
  const storage = connection.callContextStorage;
  const real = { run: storage.run.bind(storage), getStore: storage.getStore.bind(storage), disable: storage.disable.bind(storage) };
  let current: CallContext | undefined;
  let open = 0;
  const patched = storage as unknown as { run: (store: CallContext, fn: () => unknown) => unknown; getStore: () => CallContext | undefined };
  patched.getStore = () => current ?? (open > 0 ? real.getStore() : undefined);
  patched.run = (store, fn) => {
    if (namespaceOnly(store)) {
      const previous = current;
      current = store;
      try {
        return fn();
      } finally {
        current = previous;
      }
    }
    open += 1;
    let result: unknown;
    try {
      result = real.run(store, fn);
    } catch (err) {
      close();
      throw err;
    }
    if (result instanceof Promise) return result.finally(close);
    close();
    return result;
  };
  function close(): void {
    open -= 1;
    if (open === 0) real.disable();
  }
  // Connect ran its own deadline scope: nothing is open now.
  real.disable();
}
