import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MOV_FORMAT, probeIsoBmff } from '../../adapters/media/iso-bmff';

jest.setTimeout(120_000);

/**
 * The MP4/MOV header read that spares a media job's intake an ffprobe process: for every file it
 * answers, the same duration and format as real ffprobe (as the ffmpeg processor runs it); every
 * other file (fragmented, other containers, playlists, odd headers) is left to ffprobe.
 */
describe('ISO BMFF probe against ffprobe', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'herald-iso-bmff-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const ff = (name: string, ...args: string[]) => {
    const file = path.join(dir, name);
    execFileSync('ffmpeg', ['-v', 'error', '-y', ...args, file]);
    return file;
  };
  const picture = ['-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=25:duration=2.52'];
  const h264 = ['-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast'];
  const video = [...picture, ...h264];
  const audio = ['-f', 'lavfi', '-i', 'sine=frequency=440:duration=1.37'];

  /** What the processor's ffprobe call reports. */
  function ffprobe(file: string): { durationSeconds: number | null; format: string | null } {
    const out = execFileSync('ffprobe', ['-v', 'error', '-protocol_whitelist', 'file', '-show_entries', 'format=duration,format_name', '-of', 'json', file]).toString();
    const format = (JSON.parse(out) as { format?: { duration?: string; format_name?: string } }).format ?? {};
    const duration = Number(format.duration);
    return { durationSeconds: Number.isFinite(duration) && duration > 0 ? duration : null, format: format.format_name ?? null };
  }

  it.each([
    ['mp4, index at the end', () => ff('end.mp4', ...video)],
    ['mp4, index first, with audio', () => ff('fast.mp4', ...picture, ...audio, ...h264, '-c:a', 'aac', '-movflags', '+faststart')],
    ['mp4, a QuickTime time scale', () => ff('scale.mp4', ...video, '-movie_timescale', '600')],
    ['mov', () => ff('movie.mov', ...picture, ...audio, ...h264, '-c:a', 'pcm_s16le')],
    ['m4a, audio only', () => ff('sound.m4a', ...audio, '-c:a', 'aac')],
    ['3gp', () => ff('phone.3gp', ...video, '-f', '3gp')],
  ])('%s: the duration and format ffprobe reports', async (_name, make) => {
    const file = make();
    const quick = await probeIsoBmff(file);
    expect(quick).not.toBeNull();
    expect(quick).toEqual(ffprobe(file));
    expect(quick!.format).toBe(MOV_FORMAT);
  });

  it.each([
    ['a fragmented mp4', () => ff('frag.mp4', ...video, '-movflags', 'frag_keyframe+empty_moov')],
    ['matroska', () => ff('clip.mkv', ...video)],
    ['an HLS playlist', () => {
      const file = path.join(dir, 'list.m3u8');
      writeFileSync(file, '#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\nsegment.ts\n#EXT-X-ENDLIST\n');
      return file;
    }],
    ['a JPEG 2000 brand', () => {
      const file = path.join(dir, 'jp2.mp4');
      const bytes = readFileSync(ff('brand.mp4', ...video));
      bytes.write('jp2 ', 8, 'latin1');
      writeFileSync(file, bytes);
      return file;
    }],
    ['a second movie box', () => {
      const file = path.join(dir, 'twice.mp4');
      const bytes = readFileSync(ff('once.mp4', ...video));
      const at = bytes.indexOf('moov', 0, 'latin1') - 4;
      const moov = bytes.subarray(at, at + bytes.readUInt32BE(at));
      writeFileSync(file, Buffer.concat([bytes, moov]));
      return file;
    }],
    ['bytes after the last box', () => {
      const file = path.join(dir, 'tail.mp4');
      copyFileSync(ff('tailless.mp4', ...video), file);
      writeFileSync(file, Buffer.concat([readFileSync(file), Buffer.from('junk')]));
      return file;
    }],
    ['not media at all', () => {
      const file = path.join(dir, 'text.txt');
      writeFileSync(file, 'hello');
      return file;
    }],
  ])('%s is left to ffprobe', async (_name, make) => {
    expect(await probeIsoBmff(make())).toBeNull();
  });

  it('a missing file is left to ffprobe', async () => {
    expect(await probeIsoBmff(path.join(dir, 'nothing-here.mp4'))).toBeNull();
  });
});
