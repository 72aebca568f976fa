import { z } from 'zod';
import { operation } from './types';
import { ok } from './common';

/** The operator account behind the API key. */
export const getMe = operation({
  id: 'getMe', method: 'get', path: '/svc/me', tags: ['account'],
  summary: 'Check the API key',
  description: 'Validates the API key and returns the operator account: email, plan and the plan\'s limits. Use first to check a key works and what the plan allows (profiles, uploads per month, tiktok posting, media minutes).',
  auth: 'apiKey',
  responses: {
    200: {
      description: 'The account and its limits.',
      schema: ok({
        email: z.string(), plan: z.string(), account_id: z.string(),
        limits: z.object({
          profiles: z.number(), uploads_per_month: z.number().nullable().describe('null: unlimited.'), tiktok_posting: z.boolean(),
          media_minutes_per_month: z.number(), ai_analyses_per_month: z.number(), team_seats: z.number(), white_label: z.boolean(),
        }),
      }),
    },
  },
});

export const accountOperations = [getMe];
