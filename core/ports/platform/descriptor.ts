import type { CommentRules } from '../../domain/comments';
import type { MediaKind, Platform } from '../../domain/platforms';
import type { PlanName } from '../../domain/plans';
import type { PinKind } from '../../domain/profile';
import type { SimplePostOperation } from '../../domain/post-operations';
import type { SettingField, SettingsSchema } from '../../domain/settings';

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
  /** What the comment endpoints offer here (spec "Comments"); absent: the network has none. */
  comments?: CommentRules;
  /** The request fields of the published-post operations (`/posts/*`) beyond platform, user, post_id and text. */
  posts?: PostFields;
  /** Analytics facts read before any call; absent: the spec's defaults. */
  analytics?: AnalyticsFacts;
  /**
   * GET /media lists this network's published media (its adapter has the `mediaLibrary`
   * capability; a contract test keeps the two together). `pageParam`: the query parameter naming the
   * page to list, else the profile's pin (`pin`); absent: the connected account's own media.
   */
  mediaLibrary?: { pageParam?: { name: string; description: string } };
  /** The page or location the connect page pins to a profile, and the lookup that lists the choices. */
  pin?: { kind: PinKind; lookup: string };
}

/** One edit field: the name the adapter reads in `changes.settings`, fed by the first request name present. */
export type EditField = Omit<SettingField, 'endpoints' | 'aliases' | 'required' | 'default'> & { from: readonly string[] };

export interface PostFields {
  /** Another request name of `post_id` (YouTube `video_id`). */
  postIdAlias?: string;
  /** Request fields naming where the post lives, passed to the adapter as `extra` under the value's name (Facebook `facebook_page_id` → `page_id`). */
  targetFields?: Readonly<Record<string, string>>;
  /** What `POST /posts/edit` takes besides the new text; absent: the text alone. */
  edit?: {
    /** Request names of a title apart from the text (first present wins). */
    title?: readonly string[];
    fields?: readonly EditField[];
    /** Request fields under this prefix pass through to the adapter, which checks them. */
    prefix?: string;
  };
  /**
   * What the reference says of an operation on this network beside its name (DEV's unpublish: "back
   * to a draft"; an edit's fields and answer), where the network does it its own way.
   */
  notes?: Partial<Record<'edit' | SimplePostOperation, string>>;
}

export interface AnalyticsFacts {
  /** `GET /post-analytics` reads live metrics of a post from the network (spec: its listed networks). */
  livePostMetrics?: boolean;
  /**
   * `GET /analytics/{profile}` reads one of the connection's pages or locations, named by a query
   * parameter, else by the profile's pin (the descriptor's `pin`); absent: the connected account itself.
   */
  accountTarget?: AccountTarget;
  /** `GET /analytics` `days`, read only for this network (Facebook 1-365, 30 when absent); absent: the last 30 days. */
  days?: { min: number; max: number; default: number };
  /**
   * The account metrics total impressions sums for this network, in preference order (the first
   * a snapshot holds); absent: impressions, then views (core/domain/analytics-history.ts).
   */
  impressionsMetrics?: readonly string[];
}

/** What GET /analytics reads of a network whose connection holds several pages or locations. */
export interface AccountTarget {
  /** The query parameter naming it (`page_id`, `page_urn`, `gbp_location_id`). */
  param: string;
  /** What the parameter is, for the API reference (after the network's name and a colon). */
  description: string;
  /** Given neither the parameter nor a pin: 400 naming the parameter, then this (what it is, where to find one). Absent: the adapter's default. */
  required?: string;
  /**
   * The value as the adapter takes it (a LinkedIn organization URN from its numeric id). Throws an
   * invalid-input error for a parameter it cannot read; undefined for a pin to leave to the adapter's default.
   */
  parse?: (raw: string, from: 'query' | 'pin') => string | undefined;
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
