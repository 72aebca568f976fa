/**
 * Every network Herald publishes to: one record per folder. The registry, the OAuth network list,
 * the environment wiring (apps/shared/platforms.ts) and the sandbox wiring (apps/sandbox) derive
 * from this list; adding a network is its folder and one line here.
 */
import { impressionsMetricsIn } from '../../core/domain/analytics-history';
import { bluesky } from './bluesky';
import { devto } from './devto';
import { discord } from './discord';
import { facebook } from './facebook';
import { googleBusiness } from './google_business';
import { hashnode } from './hashnode';
import { instagram } from './instagram';
import { lemmy } from './lemmy';
import { linkedin } from './linkedin';
import { nostr } from './nostr';
import { listmonk } from './listmonk';
import { mastodon } from './mastodon';
import { pinterest } from './pinterest';
import { slack } from './slack';
import { snapchat } from './snapchat';
import { telegram } from './telegram';
import { threads } from './threads';
import { tiktok } from './tiktok';
import { wordpress } from './wordpress';
import { whop } from './whop';
import { x } from './x';
import { youtube } from './youtube';

/** Registry order. */
export const NETWORKS = [discord, telegram, bluesky, tiktok, instagram, threads, facebook, youtube, linkedin, x, pinterest,
  slack, wordpress, lemmy, nostr, googleBusiness, snapchat, mastodon, devto, hashnode, whop, listmonk] as const;

export type NetworkId = (typeof NETWORKS)[number]['id'];

/** Each network's default impressions metric, from the descriptors (what the snapshot repositories sum). */
export const NETWORK_IMPRESSIONS = impressionsMetricsIn(NETWORKS.map((n) => n.descriptor));
