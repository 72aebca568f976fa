import { defineSandboxNetwork } from '../kit/sandbox';
import { startWordPressSimulator } from './simulator';

export const sandboxNetwork = defineSandboxNetwork({
  id: 'wordpress',
  port: 4133,
  start: ({ port, seed }) => startWordPressSimulator({ port, seed }),
  seed(sim) {
    const user = sim.createUser({ username: 'herald', name: 'Herald Sandbox', role: 'author' });
    const category = sim.createCategory('News');
    return {
      // The site URL is per connection; the sandbox site is served over http on loopback.
      options: { allowHttpSites: 'true' },
      variables: { SANDBOX_WORDPRESS_SITE_URL: sim.siteUrl, SANDBOX_WORDPRESS_USERNAME: 'herald', SANDBOX_WORDPRESS_APPLICATION_PASSWORD: user.applicationPassword },
      secretVariables: ['SANDBOX_WORDPRESS_APPLICATION_PASSWORD'],
      account: { userId: user.id, siteUrl: sim.siteUrl, categoryId: category },
    };
  },
});

/** This folder's record in the sandbox's typed list (ops/simulators/index.ts finds the folder by the network's id). */
declare module '../kit/sandbox' {
  interface SandboxNetworks { wordpress: typeof sandboxNetwork }
}
