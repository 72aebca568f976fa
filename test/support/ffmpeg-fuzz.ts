import { seededRandom } from './seeded-random';

/**
 * Filter graphs made from fragments a hostile tenant would combine: allowed and file-opening
 * filter names, written plain, escaped, quoted or split; allowed and file-naming option keys;
 * bare values; labels; separators escaped and not. Deterministic for a seed.
 */

const NAMES = [
  'scale', 'sc\\ale', "'scale'", 'null', 'hflip', 'crop', 'fps', 'format', 'drawtext', 'dra\\wtext', 'color', 'setpts', 'pad', 'eq',
  'movie', 'mo\\vie', "'mo'vie", 'amovie', 'sendcmd', 'se\\ndcmd', 'zmq', 'lut3d', 'subtitles', 'ass', 'metadata', 'curves', 'hfl\\ip',
];
const ARGS = [
  'w=32', '32:-2', 'w=\\32:h=16', "'w'=16", ' w = 16 ', 'x=1\\:2', 'text=hi', "text='a,b'", 'text=a\\,b', 'fontsize=8', 'text\\file=/etc/passwd',
  'textfile=/etc/passwd', 'fontfile=x.ttf', '/text=/etc/passwd', '\\/text=x', 'f=/etc/passwd', 'filename=/etc/passwd', 'file=x', 'yuv420p',
  'c=black:s=16x16:d=0.04', 'expr=PTS-STARTPTS', 'brightness=0.1', 'w=iw/2:h=-2', 'x=0:y=0', "x='(w-tw)/2'", 'psfile=x', '1:2:3:4:5:6',
];
const SEPARATORS = [',', ', ', '\\,', "','", ' ,'];
const LABELS = ['', '', '', '[0:v]', '[a]', '[in]', '[\\0:v]'];

export function filtergraphFuzz(count: number, seed: number): string[] {
  const next = seededRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const graphs: string[] = [];
  for (let n = 0; n < count; n += 1) {
    const filters = 1 + Math.floor(next() * 3);
    let graph = '';
    for (let f = 0; f < filters; f += 1) {
      if (f) graph += pick(SEPARATORS);
      graph += pick(LABELS) + pick(NAMES);
      if (next() < 0.75) graph += `=${pick(ARGS)}${next() < 0.3 ? `:${pick(ARGS)}` : ''}`;
    }
    graphs.push(graph);
  }
  return graphs;
}
