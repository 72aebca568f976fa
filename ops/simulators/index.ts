/**
 * Every network simulator the sandbox runs, one record per folder (ops/simulators/<network>/);
 * apps/sandbox derives its ports, fixtures and environment from this list.
 */
import { blueskySandbox } from './bluesky/sandbox';
import { devtoSandbox } from './devto/sandbox';
import { discordSandbox } from './discord/sandbox';
import { facebookSandbox } from './facebook/sandbox';
import { googleBusinessSandbox } from './google_business/sandbox';
import { hashnodeSandbox } from './hashnode/sandbox';
import { instagramSandbox } from './instagram/sandbox';
import { lemmySandbox } from './lemmy/sandbox';
import { linkedinSandbox } from './linkedin/sandbox';
import { nostrSandbox } from './nostr/sandbox';
import { listmonkSandbox } from './listmonk/sandbox';
import { mastodonSandbox } from './mastodon/sandbox';
import { pinterestSandbox } from './pinterest/sandbox';
import { slackSandbox } from './slack/sandbox';
import { snapchatSandbox } from './snapchat/sandbox';
import { telegramSandbox } from './telegram/sandbox';
import { threadsSandbox } from './threads/sandbox';
import { tiktokSandbox } from './tiktok/sandbox';
import { wordpressSandbox } from './wordpress/sandbox';
import { whopSandbox } from './whop/sandbox';
import { xSandbox } from './x/sandbox';
import { youtubeSandbox } from './youtube/sandbox';

export const SANDBOX_NETWORKS = [
  discordSandbox, telegramSandbox, tiktokSandbox, instagramSandbox, threadsSandbox, facebookSandbox,
  youtubeSandbox, linkedinSandbox, xSandbox, pinterestSandbox, blueskySandbox,
  slackSandbox, wordpressSandbox, lemmySandbox, nostrSandbox,
  googleBusinessSandbox, snapchatSandbox,
  mastodonSandbox, devtoSandbox, hashnodeSandbox, whopSandbox, listmonkSandbox,
] as const;

type Entry = (typeof SANDBOX_NETWORKS)[number];
export type SandboxNetworkId = Entry['id'];
/** Each network's running simulator. */
export type SandboxSimulators = { [E in Entry as E['id']]: Awaited<ReturnType<E['start']>> };
/** What tests and people need to drive each network's seeded fixtures. */
export type SandboxAccounts = { [E in Entry as E['id']]: ReturnType<E['seed']>['account'] };
