import { defineSandboxNetwork } from '../kit/sandbox';
import { startWhopSimulator } from './simulator';

export const sandboxNetwork = defineSandboxNetwork({
  id: 'whop',
  port: 4144,
  start: ({ port, seed }) => startWhopSimulator({ port, seed }),
  seed(sim) {
    const company = sim.createCompany({ title: 'Herald Sandbox' });
    const experience = sim.createExperience(company.id, { name: 'Announcements' });
    const apiKey = sim.createApiKey(company.id);
    return {
      options: { apiBase: sim.apiBase },
      variables: { SANDBOX_WHOP_API_KEY: apiKey, SANDBOX_WHOP_EXPERIENCE_ID: experience.id },
      secretVariables: ['SANDBOX_WHOP_API_KEY'],
      account: { companyId: company.id, experienceId: experience.id },
    };
  },
});

/** This folder's record in the sandbox's typed list (ops/simulators/index.ts finds the folder by the network's id). */
declare module '../kit/sandbox' {
  interface SandboxNetworks { whop: typeof sandboxNetwork }
}
