/**
 * What a media job may ask of ffmpeg: every command-line option, filter, filter option, codec,
 * container and codec-parameter key a template may use. Anything not here is refused; nothing
 * here opens a file, a device or a URL of its own (checked against ffmpeg 5.1–7.1's option
 * tables: e.g. drawtext's first option is `fontfile`, so drawtext takes named options only).
 */

/** How an option's value is checked (see VALUE_CHECKS in ffmpeg-command.ts). */
export type ValueKind =
  | 'flag' | 'int' | 'number' | 'time' | 'rate' | 'size' | 'bitrate' | 'word' | 'codec' | 'muxer' | 'demuxer' | 'movflags'
  | 'fflags' | 'map' | 'map_metadata' | 'metadata' | 'filtergraph' | 'codec_params' | 'fourcc' | 'bsf' | 'disposition' | 'loglevel';

/** Where an option may stand: before an `-i` (input), before `{output}` (output), anywhere (any). */
export type OptionPlace = 'input' | 'output' | 'any';

export interface OptionRule {
  value: ValueKind;
  place: OptionPlace;
  /** Takes a stream specifier (`-c:v`, `-b:a:0`); `metadata` takes the metadata specifiers. */
  streams?: boolean | 'metadata';
}

const o = (value: ValueKind, place: OptionPlace, streams?: OptionRule['streams']): OptionRule => ({ value, place, ...(streams ? { streams } : {}) });

/** ffmpeg command-line options a template may use (the name without its leading "-"). */
export const OPTIONS: Record<string, OptionRule> = {
  // global
  y: o('flag', 'any'), hide_banner: o('flag', 'any'), nostdin: o('flag', 'any'), nostats: o('flag', 'any'), stats: o('flag', 'any'),
  loglevel: o('loglevel', 'any'), v: o('loglevel', 'any'), filter_complex: o('filtergraph', 'any'), lavfi: o('filtergraph', 'any'),
  filter_complex_threads: o('int', 'any'), copyts: o('flag', 'any'), start_at_zero: o('flag', 'any'), vsync: o('word', 'any'),
  // input and output
  ss: o('time', 'any'), t: o('time', 'any'), to: o('time', 'any'), r: o('rate', 'any', true), s: o('size', 'any', true),
  c: o('codec', 'any', true), codec: o('codec', 'any', true), vcodec: o('codec', 'any'), acodec: o('codec', 'any'), scodec: o('codec', 'any'),
  pix_fmt: o('word', 'any', true), ar: o('int', 'any', true), ac: o('int', 'any', true), threads: o('int', 'any'),
  an: o('flag', 'any'), vn: o('flag', 'any'), sn: o('flag', 'any'), dn: o('flag', 'any'), thread_queue_size: o('int', 'input'),
  // input only
  f: o('muxer', 'any'), // -f before an input names a demuxer: checked apart
  itsoffset: o('time', 'input'), stream_loop: o('int', 'input'), loop: o('int', 'input'), framerate: o('rate', 'input'),
  sseof: o('time', 'input'), re: o('flag', 'input'), accurate_seek: o('flag', 'input'), noaccurate_seek: o('flag', 'input'),
  autorotate: o('flag', 'input'), noautorotate: o('flag', 'input'), ignore_loop: o('int', 'input'),
  // output only
  vf: o('filtergraph', 'output'), af: o('filtergraph', 'output'), filter: o('filtergraph', 'output', true),
  map: o('map', 'output'), map_metadata: o('map_metadata', 'output'), map_chapters: o('map_metadata', 'output'),
  b: o('bitrate', 'output', true), maxrate: o('bitrate', 'output', true), minrate: o('bitrate', 'output', true), bufsize: o('bitrate', 'output', true),
  crf: o('number', 'output', true), qp: o('int', 'output', true), q: o('number', 'output', true), qscale: o('number', 'output', true),
  preset: o('word', 'output', true), tune: o('word', 'output', true), profile: o('word', 'output', true), level: o('word', 'output', true),
  g: o('int', 'output', true), keyint_min: o('int', 'output', true), bf: o('int', 'output', true), refs: o('int', 'output', true),
  sc_threshold: o('int', 'output', true), aspect: o('rate', 'output', true), frames: o('int', 'output', true), vframes: o('int', 'output'),
  aframes: o('int', 'output'), fps_mode: o('word', 'output', true), shortest: o('flag', 'output'), movflags: o('movflags', 'output'),
  fflags: o('fflags', 'output'), metadata: o('metadata', 'output', 'metadata'), tag: o('fourcc', 'output', true),
  'x264-params': o('codec_params', 'output', true), 'x265-params': o('codec_params', 'output', true),
  'bsf': o('bsf', 'output', true), disposition: o('disposition', 'output', true), strict: o('word', 'output', true),
  max_muxing_queue_size: o('int', 'output'), avoid_negative_ts: o('word', 'output'), fs: o('int', 'output'), update: o('int', 'output'),
  start_number: o('int', 'output'), compression_level: o('int', 'output', true), deadline: o('word', 'output', true),
  'cpu-used': o('int', 'output', true), 'row-mt': o('int', 'output', true), speed: o('int', 'output', true), lossless: o('int', 'output', true),
  quality: o('word', 'output', true), vbr: o('word', 'output', true), application: o('word', 'output', true), cutoff: o('int', 'output', true),
  pass: o('int', 'output', true), timecode: o('time', 'output'), force_key_frames: o('word', 'output', true), x264opts: o('codec_params', 'output', true),
  color_primaries: o('word', 'output', true), color_trc: o('word', 'output', true), colorspace: o('word', 'output', true), color_range: o('word', 'output', true),
};

/** Codec parameters (`-x264-params`, `-x265-params`, `-x264opts`) a template may set. */
export const CODEC_PARAM_KEYS = new Set([
  'keyint', 'min-keyint', 'scenecut', 'no-scenecut', 'bframes', 'b-adapt', 'b-pyramid', 'ref', 'rc-lookahead', 'aq-mode', 'aq-strength',
  'deblock', 'crf', 'qp', 'qpmin', 'qpmax', 'vbv-maxrate', 'vbv-bufsize', 'level', 'open-gop', 'no-open-gop', 'psy-rd', 'me', 'subme',
  'merange', 'trellis', 'weightp', 'weightb', 'nal-hrd', 'force-cfr', 'sliced-threads', 'threads', 'lookahead-threads', 'colorprim', 'transfer',
  'colormatrix', 'range', 'lossless', 'sao', 'no-sao', 'strong-intra-smoothing', 'repeat-headers', 'log-level', 'cabac', 'no-cabac', '8x8dct',
  'partitions', 'mixed-refs', 'fast-pskip', 'no-fast-pskip', 'keyint-min', 'hdr-opt', 'hdr10', 'hdr10-opt', 'max-cll', 'chromaloc', 'vbv-init',
]);

export const CODECS = new Set([
  'copy', 'libx264', 'libx264rgb', 'h264', 'libx265', 'hevc', 'libvpx', 'libvpx-vp9', 'vp8', 'vp9', 'libaom-av1', 'libsvtav1', 'libdav1d', 'av1',
  'mpeg4', 'mpeg2video', 'mjpeg', 'png', 'apng', 'gif', 'libwebp', 'libwebp_anim', 'webp', 'prores', 'prores_ks', 'dnxhd', 'rawvideo', 'h263',
  'aac', 'libmp3lame', 'mp3', 'libopus', 'opus', 'libvorbis', 'vorbis', 'flac', 'alac', 'ac3', 'eac3', 'mp2', 'pcm_s16le', 'pcm_s24le',
  'pcm_s32le', 'pcm_f32le', 'pcm_u8', 'pcm_mulaw', 'pcm_alaw', 'libspeex', 'mov_text', 'srt', 'subrip', 'webvtt', 'ass', 'ssa', 'dvd_subtitle',
]);

/** Containers `-f` may name for the output (none writes a second file or opens a URL). */
export const MUXERS = new Set([
  'mp4', 'mov', 'ipod', 'ismv', '3gp', 'matroska', 'webm', 'mp3', 'wav', 'adts', 'aac', 'flac', 'ogg', 'oga', 'opus', 'gif', 'apng', 'webp',
  'image2', 'mjpeg', 'mpegts', 'mpeg', 'avi', 'flv', 'ac3', 'eac3', 'aiff', 'caf', 'w64', 's16le', 'f32le', 'h264', 'hevc', 'ivf', 'srt', 'webvtt', 'ass',
]);

/**
 * Containers an input may be, named by `-f` or found by probing: none of them reads a list of
 * other files, a playlist or a filter graph (concat, hls, dash, lavfi, tee, sdp… are absent).
 */
export const DEMUXERS = new Set([
  ...MUXERS, 'm4a', '3g2', 'mj2', 'png_pipe', 'jpeg_pipe', 'webp_pipe', 'gif_pipe', 'bmp_pipe', 'tiff_pipe', 'image2', 'mpegvideo', 'm4v',
  'asf', 'wmv', 'wma', 'amr', 'au', 'mxf', 'dv', 'nut', 'vob', 'mpegps', 'ogv', 'aiff', 'ape', 'wv', 'dts', 'truehd', 'mlp', 'vp8', 'vp9', 'av1',
  'obu', 'subviewer', 'microdvd', 'lrc',
]);

export const BITSTREAM_FILTERS = new Set(['h264_mp4toannexb', 'hevc_mp4toannexb', 'aac_adtstoasc', 'vp9_superframe', 'null', 'dump_extra', 'remove_extra']);

export const MOVFLAGS = new Set([
  'faststart', 'frag_keyframe', 'empty_moov', 'default_base_moof', 'separate_moof', 'frag_custom', 'isml', 'omit_tfhd_offset', 'disable_chpl',
  'negative_cts_offsets', 'use_metadata_tags', 'write_colr', 'write_gama', 'skip_trailer', 'delay_moov', 'global_sidx', 'cmaf', 'dash',
  'frag_discont', 'rtphint', 'prefer_icc', 'skip_sidx', 'use_editlist',
]);
export const FFLAGS = new Set(['genpts', 'igndts', 'ignidx', 'nobuffer', 'flush_packets', 'bitexact', 'shortest', 'autobsf', 'discardcorrupt', 'fastseek', 'nofillin', 'noparse', 'sortdts']);
export const LOGLEVELS = new Set(['quiet', 'panic', 'fatal', 'error', 'warning', 'info', 'verbose', 'debug', '-8', '0', '8', '16', '24', '32', '40', '48']);

/**
 * A filter a graph may use: its options by name, and how many leading values may be given
 * without a name (they go to the filter's first options, in its declared order; 0 where one of
 * the first options is one a template may not set).
 */
export interface FilterRule {
  options: readonly string[];
  positional: number;
}

const f = (positional: number, ...options: string[]): FilterRule => ({ options, positional });

/** Every filter option of libavfilter's base class that a template may set on any filter. */
export const COMMON_FILTER_OPTIONS = ['enable'];

export const FILTERS: Record<string, FilterRule> = {
  // geometry
  scale: f(3, 'w', 'h', 'width', 'height', 'flags', 'interl', 'size', 's', 'force_original_aspect_ratio', 'force_divisible_by', 'eval', 'in_range', 'out_range', 'in_color_matrix', 'out_color_matrix', 'reset_sar'),
  crop: f(4, 'w', 'h', 'x', 'y', 'out_w', 'out_h', 'keep_aspect', 'exact'),
  pad: f(5, 'w', 'h', 'x', 'y', 'color', 'width', 'height', 'eval', 'aspect'),
  transpose: f(2, 'dir', 'passthrough'), hflip: f(0), vflip: f(0), rotate: f(4, 'angle', 'a', 'out_w', 'ow', 'out_h', 'oh', 'fillcolor', 'c', 'bilinear'),
  setsar: f(2, 'r', 'ratio', 'sar', 'max'), setdar: f(2, 'r', 'ratio', 'dar', 'max'), zoompan: f(5, 'zoom', 'z', 'x', 'y', 'd', 's', 'fps'),
  overlay: f(2, 'x', 'y', 'eof_action', 'eval', 'shortest', 'format', 'repeatlast', 'alpha'),
  hstack: f(2, 'inputs', 'shortest'), vstack: f(2, 'inputs', 'shortest'), tile: f(2, 'layout', 'nb_frames', 'margin', 'padding', 'color'),
  // time
  trim: f(2, 'start', 'end', 'start_pts', 'end_pts', 'duration', 'start_frame', 'end_frame'),
  atrim: f(2, 'start', 'end', 'start_pts', 'end_pts', 'duration', 'start_sample', 'end_sample'),
  setpts: f(1, 'expr'), asetpts: f(1, 'expr'), fps: f(2, 'fps', 'start_time', 'round', 'eof_action'), framerate: f(1, 'fps', 'interp_start', 'interp_end', 'scene'),
  tpad: f(0, 'start', 'stop', 'start_mode', 'stop_mode', 'start_duration', 'stop_duration', 'color'), apad: f(0, 'packet_size', 'pad_len', 'whole_len', 'pad_dur', 'whole_dur'),
  loop: f(3, 'loop', 'size', 'start'), aloop: f(3, 'loop', 'size', 'start'), reverse: f(0), areverse: f(0),
  select: f(1, 'expr', 'e', 'outputs', 'n'), aselect: f(1, 'expr', 'e', 'outputs', 'n'), thumbnail: f(1, 'n'),
  concat: f(3, 'n', 'v', 'a', 'unsafe'), split: f(1, 'outputs'), asplit: f(1, 'outputs'),
  fade: f(3, 'type', 't', 'start_frame', 's', 'nb_frames', 'n', 'alpha', 'start_time', 'st', 'duration', 'd', 'color', 'c'),
  afade: f(3, 'type', 't', 'start_sample', 'ss', 'nb_samples', 'ns', 'start_time', 'st', 'duration', 'd', 'curve', 'c'),
  xfade: f(0, 'transition', 'duration', 'offset'), acrossfade: f(0, 'nb_samples', 'ns', 'duration', 'd', 'overlap', 'o', 'curve1', 'c1', 'curve2', 'c2'),
  // pixels
  format: f(1, 'pix_fmts'), eq: f(4, 'contrast', 'brightness', 'saturation', 'gamma', 'gamma_r', 'gamma_g', 'gamma_b', 'gamma_weight', 'eval'),
  hue: f(4, 'h', 's', 'H', 'b'), negate: f(0), colorchannelmixer: f(0, 'rr', 'rg', 'rb', 'ra', 'gr', 'gg', 'gb', 'ga', 'br', 'bg', 'bb', 'ba', 'ar', 'ag', 'ab', 'aa'),
  colorbalance: f(0, 'rs', 'gs', 'bs', 'rm', 'gm', 'bm', 'rh', 'gh', 'bh', 'pl'), boxblur: f(4, 'luma_radius', 'lr', 'luma_power', 'lp', 'chroma_radius', 'cr', 'chroma_power', 'cp'),
  gblur: f(2, 'sigma', 'steps', 'planes', 'sigmaV'), unsharp: f(6, 'luma_msize_x', 'lx', 'luma_msize_y', 'ly', 'luma_amount', 'la', 'chroma_msize_x', 'cx', 'chroma_msize_y', 'cy', 'chroma_amount', 'ca'),
  yadif: f(3, 'mode', 'parity', 'deint'), bwdif: f(3, 'mode', 'parity', 'deint'), hqdn3d: f(4, 'luma_spatial', 'chroma_spatial', 'luma_tmp', 'chroma_tmp'),
  vignette: f(0, 'angle', 'a', 'x0', 'y0', 'mode', 'eval', 'dither', 'aspect'), noise: f(0, 'all_seed', 'all_strength', 'alls', 'all_flags', 'allf', 'c0s', 'c0f'),
  edgedetect: f(0, 'high', 'low', 'mode'), chromakey: f(3, 'color', 'similarity', 'blend', 'yuv'), colorkey: f(3, 'color', 'similarity', 'blend'),
  drawbox: f(0, 'x', 'y', 'width', 'w', 'height', 'h', 'color', 'c', 'thickness', 't', 'replace'),
  drawgrid: f(0, 'x', 'y', 'width', 'w', 'height', 'h', 'color', 'c', 'thickness', 't', 'replace'),
  drawtext: f(0, 'text', 'font', 'fontsize', 'fontcolor', 'fontcolor_expr', 'alpha', 'x', 'y', 'box', 'boxcolor', 'boxborderw', 'borderw',
    'bordercolor', 'shadowx', 'shadowy', 'shadowcolor', 'line_spacing', 'fix_bounds', 'expansion', 'text_shaping', 'tabsize', 'start_number', 'basetime', 'text_align', 'y_align'),
  palettegen: f(0, 'max_colors', 'reserve_transparent', 'transparency_color', 'stats_mode'), paletteuse: f(0, 'dither', 'bayer_scale', 'diff_mode', 'new', 'alpha_threshold'),
  null: f(0), copy: f(0), setrange: f(0, 'range'), colorspace: f(0, 'all', 'space', 'trc', 'primaries', 'range', 'format', 'fast', 'dither', 'iall', 'ispace', 'itrc', 'iprimaries', 'irange'),
  showwaves: f(0, 'size', 's', 'mode', 'n', 'rate', 'r', 'split_channels', 'colors', 'scale', 'draw'), showwavespic: f(0, 'size', 's', 'split_channels', 'colors', 'scale', 'draw'),
  showspectrum: f(0, 'size', 's', 'slide', 'mode', 'color', 'scale', 'fscale', 'saturation', 'win_func', 'orientation', 'overlap', 'gain', 'legend'),
  // sources (a graph may make a picture or a tone of its own; none reads a file)
  color: f(4, 'color', 'c', 'size', 's', 'rate', 'r', 'duration', 'd', 'sar'), anullsrc: f(2, 'channel_layout', 'cl', 'sample_rate', 'r', 'nb_samples', 'n', 'duration', 'd'),
  sine: f(2, 'frequency', 'f', 'beep_factor', 'b', 'sample_rate', 'r', 'duration', 'd', 'samples_per_frame'),
  // audio
  anull: f(0), volume: f(1, 'volume', 'precision', 'eval', 'replaygain', 'replaygain_preamp', 'replaygain_noclip'), loudnorm: f(0, 'I', 'i', 'LRA', 'lra', 'TP', 'tp', 'measured_I', 'measured_LRA', 'measured_TP', 'measured_thresh', 'offset', 'linear', 'dual_mono'),
  aresample: f(1, 'sample_rate', 'async', 'resampler', 'osr', 'ochl', 'out_sample_rate'), aformat: f(0, 'sample_fmts', 'f', 'sample_rates', 'r', 'channel_layouts', 'cl'),
  amix: f(0, 'inputs', 'duration', 'dropout_transition', 'weights', 'normalize'), amerge: f(1, 'inputs'), atempo: f(1, 'tempo'), asetrate: f(1, 'sample_rate', 'r'),
  highpass: f(2, 'frequency', 'f', 'poles', 'p', 'width_type', 't', 'width', 'w', 'mix', 'm'), lowpass: f(2, 'frequency', 'f', 'poles', 'p', 'width_type', 't', 'width', 'w', 'mix', 'm'),
  equalizer: f(0, 'frequency', 'f', 'width_type', 't', 'width', 'w', 'gain', 'g', 'mix', 'm'), bass: f(0, 'frequency', 'f', 'gain', 'g', 'width_type', 't', 'width', 'w'),
  treble: f(0, 'frequency', 'f', 'gain', 'g', 'width_type', 't', 'width', 'w'), dynaudnorm: f(0, 'framelen', 'f', 'gausssize', 'g', 'peak', 'p', 'maxgain', 'm'),
  acompressor: f(0, 'level_in', 'mode', 'threshold', 'ratio', 'attack', 'release', 'makeup', 'knee', 'mix'), alimiter: f(0, 'level_in', 'level_out', 'limit', 'attack', 'release'),
  silenceremove: f(0, 'start_periods', 'start_duration', 'start_threshold', 'stop_periods', 'stop_duration', 'stop_threshold', 'detection'),
  aecho: f(4, 'in_gain', 'out_gain', 'delays', 'decays'), afftdn: f(0, 'nr', 'nf', 'nt'), agate: f(0, 'level_in', 'mode', 'range', 'threshold', 'ratio', 'attack', 'release'),
  stereotools: f(0, 'level_in', 'level_out', 'balance_in', 'balance_out', 'mode'), extrastereo: f(0, 'm', 'c'), earwax: f(0),
};
