import { open, type FileHandle } from 'node:fs/promises';

/** The format name ffprobe gives every file its mov demuxer reads (MP4, MOV, M4A, 3GP…). */
export const MOV_FORMAT = 'mov,mp4,m4a,3gp,3g2,mj2';

/**
 * Major brands of MP4/MOV/3GP video and audio files. A file of another brand (JPEG 2000, JPEG XL,
 * HEIF images, anything rarer) is left to ffprobe.
 */
const BRANDS = new Set([
  'isom', 'iso2', 'iso3', 'iso4', 'iso5', 'iso6', 'mp41', 'mp42', 'avc1', 'qt  ', 'M4V ', 'M4A ', 'M4VH', 'M4VP',
  '3gp4', '3gp5', '3gp6', '3g2a', 'mmp4', 'MSNV', 'XAVC', 'f4v ',
]);

/** Boxes of fragmented or segmented files (their duration is worked out differently). */
const FRAGMENTS = new Set(['moof', 'mfra', 'sidx', 'ssix', 'styp', 'emsg', 'mvex']);

interface Box { type: string; start: number; size: number; header: number }

async function readBox(file: FileHandle, at: number, end: number): Promise<Box | null> {
  if (at + 8 > end) return null;
  const head = Buffer.alloc(16);
  const { bytesRead } = await file.read(head, 0, 16, at);
  if (bytesRead < 8) return null;
  let size = head.readUInt32BE(0);
  let header = 8;
  if (size === 1) {
    if (bytesRead < 16) return null;
    const large = head.readBigUInt64BE(8);
    if (large > BigInt(Number.MAX_SAFE_INTEGER)) return null;
    size = Number(large);
    header = 16;
  } else if (size === 0) {
    size = end - at;
  }
  if (size < header || at + size > end) return null;
  const type = head.toString('latin1', 4, 8);
  return /^[\x20-\x7e]{4}$/.test(type) ? { type, start: at, size, header } : null;
}

/**
 * Duration and format of an MP4/MOV file read from its own boxes, as ffprobe would report them,
 * without starting ffprobe (a process linking a few hundred libraries: about 0.1 s of CPU and
 * more of wall time on a loaded machine, in every media job's intake). Null whenever the file is
 * anything else or anything unusual, and ffprobe decides:
 *
 * - The file starts with an `ftyp` box of one of the video/audio brands above (size 8 to 4096:
 *   its first byte is 0). ffmpeg's format probe gives such a file to its mov demuxer with the
 *   highest score there is (libavformat/mov.c `mov_probe`); no other demuxer can score higher, so
 *   the format ffmpeg will read it as is mov (or none at all, on a tie), never a playlist or any
 *   other format that opens further files: the refused formats are text formats recognised by
 *   their first bytes.
 * - The first top-level `moov` has an `mvhd` with a time scale and a duration, and no `mvex`
 *   (a fragmented file, whose duration ffmpeg works out from the fragments). ffmpeg takes that
 *   duration for the file's (`mov_read_mvhd`), rounded to microseconds, as done here.
 */
export async function probeIsoBmff(path: string): Promise<{ durationSeconds: number; format: string } | null> {
  let file: FileHandle | undefined;
  try {
    file = await open(path, 'r');
    const end = (await file.stat()).size;
    const ftyp = await readBox(file, 0, end);
    if (!ftyp || ftyp.type !== 'ftyp' || ftyp.header !== 8 || ftyp.size < 16 || ftyp.size > 4096) return null;
    const brand = Buffer.alloc(4);
    await file.read(brand, 0, 4, 8);
    if (!BRANDS.has(brand.toString('latin1'))) return null;

    // Top-level boxes that tile the whole file: one movie, nothing of a fragmented file.
    let moov: Box | null = null;
    for (let at = ftyp.size, n = 0; at < end; n += 1) {
      const box = await readBox(file, at, end);
      if (!box || n > 1000 || FRAGMENTS.has(box.type) || (box.type === 'moov' && moov)) return null;
      if (box.type === 'moov') moov = box;
      at += box.size;
    }
    return moov ? await movieHeader(file, moov) : null;
  } catch {
    return null;
  } finally {
    await file?.close();
  }
}

async function movieHeader(file: FileHandle, moov: Box): Promise<{ durationSeconds: number; format: string } | null> {
  const end = moov.start + moov.size;
  let duration: number | null = null;
  for (let at = moov.start + moov.header, n = 0; at < end; n += 1) {
    const box = await readBox(file, at, end);
    if (!box || n > 1000 || FRAGMENTS.has(box.type)) return null;
    if (box.type === 'mvhd') {
      // ffmpeg keeps the last movie header it reads: a second one is left to ffprobe.
      if (duration !== null) return null;
      const body = Buffer.alloc(32);
      const { bytesRead } = await file.read(body, 0, 32, box.start + box.header);
      const version = body[0];
      let timescale: number;
      let units: number;
      if (version === 0 && bytesRead >= 20 && box.size >= box.header + 20) {
        timescale = body.readUInt32BE(12);
        units = body.readUInt32BE(16);
        if (units === 0xffffffff) return null;
      } else if (version === 1 && bytesRead >= 32 && box.size >= box.header + 32) {
        timescale = body.readUInt32BE(20);
        const big = body.readBigUInt64BE(24);
        if (big >= BigInt(Number.MAX_SAFE_INTEGER)) return null;
        units = Number(big);
      } else {
        return null;
      }
      // ffmpeg reads the time scale as a signed 32-bit number and replaces one that is not positive.
      if (timescale <= 0 || timescale > 0x7fffffff || units <= 0) return null;
      // av_rescale(units, 1e6, timescale), rounded to the nearest microsecond as ffmpeg does.
      const micros = (BigInt(units) * 1_000_000n + BigInt(timescale) / 2n) / BigInt(timescale);
      duration = Number(micros) / 1e6;
    }
    at += box.size;
  }
  return duration === null ? null : { durationSeconds: duration, format: MOV_FORMAT };
}
