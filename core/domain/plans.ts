/** The plan table of the spec: one place, everything else imports it. */
export const PLAN_NAMES = ['free', 'basic', 'professional', 'advanced', 'business'] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

export interface Plan {
  name: PlanName;
  /** null means unlimited. */
  uploadsPerMonth: number | null;
  profiles: number;
  whiteLabel: boolean;
  teamSeats: number;
  mediaMinutesPerMonth: number;
  aiAnalysesPerMonth: number;
}

export const PLANS: Record<PlanName, Plan> = {
  free: { name: 'free', uploadsPerMonth: 10, profiles: 2, whiteLabel: false, teamSeats: 1, mediaMinutesPerMonth: 30, aiAnalysesPerMonth: 10 },
  basic: { name: 'basic', uploadsPerMonth: null, profiles: 5, whiteLabel: false, teamSeats: 1, mediaMinutesPerMonth: 300, aiAnalysesPerMonth: 100 },
  professional: { name: 'professional', uploadsPerMonth: null, profiles: 25, whiteLabel: true, teamSeats: 2, mediaMinutesPerMonth: 1000, aiAnalysesPerMonth: 300 },
  advanced: { name: 'advanced', uploadsPerMonth: null, profiles: 75, whiteLabel: true, teamSeats: 5, mediaMinutesPerMonth: 3000, aiAnalysesPerMonth: 600 },
  business: { name: 'business', uploadsPerMonth: null, profiles: 225, whiteLabel: true, teamSeats: 10, mediaMinutesPerMonth: 10000, aiAnalysesPerMonth: 1000 },
};

export function isPlanName(value: string): value is PlanName {
  return (PLAN_NAMES as readonly string[]).includes(value);
}
