import ffmpeg from 'fluent-ffmpeg';
import type { MediaInfo, MediaProbe } from '../../core/ports/media';

function frameRate(raw: string | undefined): number | null {
  if (!raw) return null;
  const [num, den] = raw.split('/').map(Number);
  if (!num || !den) return null;
  return Math.round((num / den) * 100) / 100;
}

/** Reads duration, resolution, frame rate and codecs with ffprobe (fluent-ffmpeg). */
export function createFfprobe(opts: { pathOf: (id: string) => string; ffprobePath?: string }): MediaProbe {
  if (opts.ffprobePath) ffmpeg.setFfprobePath(opts.ffprobePath);
  return {
    probe(id: string): Promise<MediaInfo> {
      return new Promise((resolve, reject) => {
        ffmpeg.ffprobe(opts.pathOf(id), (err, data) => {
          if (err) return reject(new Error(`ffprobe could not read media ${id}: ${(err as Error).message.split('\n')[0]}`));
          const video = data.streams.find((s) => s.codec_type === 'video');
          const audio = data.streams.find((s) => s.codec_type === 'audio');
          const duration = Number(data.format.duration);
          resolve({
            durationSeconds: Number.isFinite(duration) ? duration : null,
            width: video?.width ?? null,
            height: video?.height ?? null,
            frameRate: frameRate(video?.avg_frame_rate ?? video?.r_frame_rate),
            videoCodec: video?.codec_name ?? null,
            audioCodec: audio?.codec_name ?? null,
            container: data.format.format_name ?? null,
          });
        });
      });
    },
  };
}
