import type { MediaKind, Platform } from '../../domain/platforms';
import type { PlanName } from '../../domain/plans';
import type { SettingsSchema } from '../../domain/settings';

/**
 * What Herald knows about a network without calling it. Intake and the adapter read the same
 * descriptor, so nothing intake accepts is refused later for a limit intake could have checked.
 */
export interface PlatformDescriptor {
  id: Platform;
  displayName: string;
  /** How an account is connected: OAuth 2, or credentials submitted to Herald (webhook, bot token, app password). */
  connect: 'oauth' | 'credentials';
  /** Upload endpoints this network accepts. */
  endpoints: readonly MediaKind[];
  /** Limits checked before anything is sent (spec "Media limits by platform"). */
  limits: PlatformLimits;
  /** The per-platform fields this network accepts on each endpoint. */
  settings: SettingsSchema;
  /** Fields of `POST /users/<network>/credentials` (credentials networks only). */
  credentialFields?: SettingsSchema;
  /** Publishing rules of the network that are not media or text limits. */
  rules?: PlatformRules;
}

export interface PlatformRules {
  /** The video endpoint needs a title for this network (YouTube). */
  titleRequiredForVideo?: boolean;
  /** The photo endpoint takes videos too (Instagram and Threads mixed carousels). */
  videoInPhotos?: boolean;
  /** Posts per connected account over a rolling 24 hours (spec "Limits"). */
  dailyCap?: number;
  /** Posts per connected account per minute (TikTok bursts). */
  perMinuteCap?: number;
  /** Plans that may not publish to this network (TikTok on the free plan). */
  excludedPlans?: readonly PlanName[];
}

export interface PlatformLimits {
  /** The most characters of post text or caption, counted by `textLength`. */
  textMaxChars?: number;
  /**
   * How the network counts `textMaxChars` (code points, graphemes, X's weighted length, …).
   * Default: Unicode code points.
   */
  textLength?: (text: string) => number;
  video?: {
    maxBytes?: number;
    minSeconds?: number;
    maxSeconds?: number;
    /** ffprobe container names accepted, e.g. ['mov,mp4,m4a,3gp,3g2,mj2', 'matroska,webm']. */
    containers?: readonly string[];
    minShortSidePx?: number;
    minFps?: number;
    maxFps?: number;
  };
  photo?: {
    maxBytes?: number;
    maxCount?: number;
    contentTypes?: readonly string[];
    /** Width / height bounds (e.g. Instagram 0.8 to 1.91). */
    minAspectRatio?: number;
    maxAspectRatio?: number;
  };
}

/** Unicode code points: what most networks count. */
export const codePointLength = (text: string): number => [...text].length;

/** The length of a text as `descriptor` counts it. */
export const textLengthOf = (descriptor: PlatformDescriptor, text: string): number =>
  (descriptor.limits.textLength ?? codePointLength)(text);
