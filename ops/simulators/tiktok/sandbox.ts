import { defineSandboxNetwork } from '../kit/sandbox';
import { startTikTokSimulator } from './simulator';

export const sandboxNetwork = defineSandboxNetwork({
  id: 'tiktok',
  port: 4103,
  // Comments show in listings at once in the sandbox (TikTok: ~10 s; setCommentListingDelay restores it).
  start: ({ port, seed, processingMs }) => startTikTokSimulator({ port, seed, processingMs, commentListingDelayMs: 0 }),
  seed(sim, callbackUrl) {
    const client = sim.createClient({ redirectUris: [callbackUrl] });
    const user = sim.createAccount({
      username: 'herald.sandbox', displayName: 'Herald Sandbox',
      // {video_privacy, inbox_fallback} and {music, location, cover_image, draft, …} never meet on one connection.
      capabilities: ['video_privacy', 'photo_privacy', 'inbox_fallback', 'comments'],
    });
    return {
      options: { apiBase: sim.apiBase, authBase: sim.authBase, businessApiBase: sim.businessApiBase },
      client: { clientId: client.clientKey, clientSecret: client.clientSecret },
      account: { clientId: client.clientKey, redirectUri: callbackUrl, openId: user.openId, username: user.username, capabilities: user.capabilities },
    };
  },
});

/** This folder's record in the sandbox's typed list (ops/simulators/index.ts finds the folder by the network's id). */
declare module '../kit/sandbox' {
  interface SandboxNetworks { tiktok: typeof sandboxNetwork }
}
