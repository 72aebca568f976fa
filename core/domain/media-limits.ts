import type { ErrorCode } from './error-codes';
import type { MediaRef } from './media';
import type { MediaKind } from './platforms';
import type { PlatformDescriptor } from '../ports/platform';

export interface LimitViolation {
  platform: string;
  type: ErrorCode;
  message: string;
  limit?: number | string;
  actual?: number | string;
}

const mb = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

/**
 * Checks a post's media against one network's limits before anything is sent ("Media limits by
 * platform"). Each violation names the platform, the limit and the offending value.
 */
export function mediaLimitViolations(
  descriptor: Pick<PlatformDescriptor, 'id' | 'limits' | 'rules'>, kind: MediaKind, media: readonly MediaRef[],
): LimitViolation[] {
  const { id: platform, limits } = descriptor;
  const out: LimitViolation[] = [];
  if (kind === 'photo' && !descriptor.rules?.videoInPhotos && media.some((m) => m.kind === 'video')) {
    out.push({ platform, type: 'video_not_allowed', message: `${platform} does not take videos on the photo endpoint (only mixed carousels of networks that have them do).` });
  }
  const add = (type: ErrorCode, message: string, limit?: number | string, actual?: number | string) =>
    out.push({ platform, type, message: `${platform}: ${message}`, ...(limit !== undefined ? { limit } : {}), ...(actual !== undefined ? { actual } : {}) });

  for (const item of media.filter((m) => m.kind === 'video')) {
    const v = limits.video;
    if (!v) continue;
    const info = item.info;
    if (v.maxBytes !== undefined && item.size > v.maxBytes) add('video_too_large', `the video is ${mb(item.size)}; the limit is ${mb(v.maxBytes)}.`, v.maxBytes, item.size);
    const seconds = info?.durationSeconds ?? null;
    if (seconds !== null && v.maxSeconds !== undefined && seconds > v.maxSeconds) add('video_too_long', `the video lasts ${Math.round(seconds)} s; the limit is ${v.maxSeconds} s.`, v.maxSeconds, seconds);
    if (seconds !== null && v.minSeconds !== undefined && seconds < v.minSeconds) add('video_too_short', `the video lasts ${seconds} s; the minimum is ${v.minSeconds} s.`, v.minSeconds, seconds);
    if (v.containers && info?.container && !v.containers.some((c) => info.container === c || info.container!.split(',').some((p) => c.split(',').includes(p)))) {
      add('video_format', `the video container "${info.container}" is not accepted.`, v.containers.join(' | '), info.container);
    }
    const shortSide = info?.width && info?.height ? Math.min(info.width, info.height) : null;
    if (shortSide !== null && v.minShortSidePx !== undefined && shortSide < v.minShortSidePx) add('video_resolution', `the video's short side is ${shortSide} px; the minimum is ${v.minShortSidePx} px.`, v.minShortSidePx, shortSide);
    const fps = info?.frameRate ?? null;
    if (fps !== null && v.minFps !== undefined && fps < v.minFps) add('video_frame_rate', `the video runs at ${fps} fps; the minimum is ${v.minFps}.`, v.minFps, fps);
    if (fps !== null && v.maxFps !== undefined && fps > v.maxFps) add('video_frame_rate', `the video runs at ${fps} fps; the maximum is ${v.maxFps}.`, v.maxFps, fps);
  }

  const images = media.filter((m) => m.kind === 'image');
  const p = limits.photo;
  if (p && kind === 'photo') {
    if (p.maxCount !== undefined && images.length > p.maxCount) add('too_many_photos', `${images.length} photos sent; at most ${p.maxCount}.`, p.maxCount, images.length);
  }
  for (const [index, item] of images.entries()) {
    if (!p) break;
    if (p.maxBytes !== undefined && item.size > p.maxBytes) add('photo_too_large', `photo ${index + 1} is ${mb(item.size)}; the limit is ${mb(p.maxBytes)}.`, p.maxBytes, item.size);
    if (p.contentTypes && !p.contentTypes.includes(item.contentType)) add('photo_format', `photo ${index + 1} is ${item.contentType}; accepted: ${p.contentTypes.join(', ')}.`, p.contentTypes.join(' | '), item.contentType);
    const ratio = item.info?.width && item.info?.height ? item.info.width / item.info.height : null;
    if (ratio !== null && p.minAspectRatio !== undefined && ratio < p.minAspectRatio - 1e-3) add('photo_aspect_ratio', `photo ${index + 1} has aspect ratio ${ratio.toFixed(2)}; the minimum is ${p.minAspectRatio}.`, p.minAspectRatio, Number(ratio.toFixed(3)));
    if (ratio !== null && p.maxAspectRatio !== undefined && ratio > p.maxAspectRatio + 1e-3) add('photo_aspect_ratio', `photo ${index + 1} has aspect ratio ${ratio.toFixed(2)}; the maximum is ${p.maxAspectRatio}.`, p.maxAspectRatio, Number(ratio.toFixed(3)));
  }
  return out;
}
