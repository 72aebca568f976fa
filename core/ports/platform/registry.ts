import type { Platform } from '../../domain/platforms';
import type { Comments } from './comments';
import type { CredentialConnector, OAuthConnector, TokenRefresher } from './connect';
import type { PlatformDescriptor } from './descriptor';
import type { Analytics } from './analytics';
import type { Lookups, MediaLibrary, PostEditor } from './later';
import type { AccountProbe } from './probe';
import type { Publisher } from './publish';

/** What the core gets for one network: its descriptor and the capabilities it has. */
export interface PlatformAdapter {
  descriptor: PlatformDescriptor;
  credentials?: CredentialConnector;
  oauth?: OAuthConnector;
  refresher?: TokenRefresher;
  publisher?: Publisher;
  comments?: Comments;
  mediaLibrary?: MediaLibrary;
  analytics?: Analytics;
  postEditor?: PostEditor;
  lookups?: Lookups;
  probe?: AccountProbe;
}

export type Capability = Exclude<keyof PlatformAdapter, 'descriptor'>;

/** An adapter known to have `C`. */
export type Having<C extends Capability> = PlatformAdapter & { [K in C]-?: NonNullable<PlatformAdapter[K]> };

export interface PlatformRegistry {
  get(platform: Platform): PlatformAdapter | undefined;
  list(): PlatformAdapter[];
  /** The networks that can do `capability`, in registry order. */
  having<C extends Capability>(capability: C): Array<Having<C>>;
  /** `platform`'s adapter when it can do `capability`. */
  with<C extends Capability>(platform: Platform, capability: C): Having<C> | undefined;
}
