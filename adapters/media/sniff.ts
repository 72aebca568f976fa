/**
 * The type of a file from its first bytes (magic numbers), for staged uploads whose declared
 * type must be what the bytes are. Only the formats Herald's networks take are known; anything
 * else is undefined. Containers that cannot be told apart from their header answer their
 * family's usual type (core/domain/media-upload.ts sniffMatches treats the family as one).
 */
export function sniffContentType(head: Uint8Array): string | undefined {
  const b = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  const at = (offset: number, bytes: number[]) => bytes.every((v, i) => b[offset + i] === v);
  const ascii = (offset: number, text: string) => b.length >= offset + text.length && b.toString('latin1', offset, offset + text.length) === text;
  if (at(0, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (at(0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (ascii(0, 'GIF87a') || ascii(0, 'GIF89a')) return 'image/gif';
  if (ascii(0, 'RIFF') && ascii(8, 'WEBP')) return 'image/webp';
  if (ascii(0, '%PDF-')) return 'application/pdf';
  if (at(0, [0x1a, 0x45, 0xdf, 0xa3])) return ebmlDocType(b) === 'webm' ? 'video/webm' : 'video/x-matroska';
  // ISO BMFF (MP4, MOV): a first box `ftyp` (also `moov`/`mdat`/`free`/`wide` first in old QuickTime files).
  if (ascii(4, 'ftyp')) return ascii(8, 'qt  ') ? 'video/quicktime' : 'video/mp4';
  if (['moov', 'mdat', 'wide', 'free', 'skip'].some((box) => ascii(4, box))) return 'video/quicktime';
  if (at(0, [0x50, 0x4b, 0x03, 0x04])) return officeZipType(b);
  if (at(0, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return 'application/x-ole-storage';
  return undefined;
}

/** The EBML header's DocType (`webm` or `matroska`), read as the text after its element id 0x4282. */
function ebmlDocType(b: Buffer): string | undefined {
  const i = b.indexOf(Buffer.from([0x42, 0x82]), 4);
  if (i < 0 || i + 3 > b.length) return undefined;
  const size = b[i + 2]! & 0x7f; // one-byte EBML size (0x80 | n), which is what every muxer writes here
  return b.toString('latin1', i + 3, i + 3 + size);
}

/** A zip is an Office Open XML file when its first entries name one (they come first in every writer's output). */
function officeZipType(b: Buffer): string {
  const names = b.toString('latin1');
  if (names.includes('word/')) return 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
  if (names.includes('ppt/')) return 'application/vnd.openxmlformats-officedocument.presentationml.presentation';
  return 'application/zip';
}
