import { bindCommand, parseCommandTemplate, presetTemplate } from '../../core/domain/ffmpeg-command';
import { HeraldError } from '../../core/domain/errors';

/** The refusal a template gets: a 400 `unsafe_command` whose message names what was refused. */
function refusal(template: string, inputs = 1): HeraldError {
  try {
    parseCommandTemplate(template, inputs);
  } catch (err) {
    expect(err).toBeInstanceOf(HeraldError);
    return err as HeraldError;
  }
  throw new Error(`accepted: ${template}`);
}

describe('command templates: accepted', () => {
  it('a transcode: argv with whole-argument placeholders, no shell quoting left', () => {
    const t = parseCommandTemplate('ffmpeg -i {input} -c:v libx264 -crf 28 -vf "scale=320:-2" {output}', 1);
    expect(t).toEqual({ args: ['-i', '{input0}', '-c:v', 'libx264', '-crf', '28', '-vf', 'scale=320:-2', '{output}'], inputCount: 1 });
    expect(bindCommand(t, ['/store/a'], '/scratch/output.mp4')).toEqual(['-i', '/store/a', '-c:v', 'libx264', '-crf', '28', '-vf', 'scale=320:-2', '/scratch/output.mp4']);
  });

  it('an overlay of {input1} on {input}', () => {
    const t = parseCommandTemplate("ffmpeg -i {input} -i {input1} -filter_complex '[0:v][1:v]overlay=10:10' -c:a copy {output}", 2);
    expect(t.inputCount).toBe(2);
    expect(t.args).toEqual(['-i', '{input0}', '-i', '{input1}', '-filter_complex', '[0:v][1:v]overlay=10:10', '-c:a', 'copy', '{output}']);
  });

  it('multi-line drawtext: newlines of the text become spaces, the two characters \\n become a line break in the argument', () => {
    const t = parseCommandTemplate("ffmpeg -i {input}\n -vf \"drawtext=text='Line one\\nLine two':fontsize=24:x=10:y=10\"\r\n {output}", 1);
    expect(t.args).toEqual(['-i', '{input0}', '-vf', "drawtext=text='Line one\nLine two':fontsize=24:x=10:y=10", '{output}']);
  });

  it('drawtext expansions, seeking, timing, a fraction, negative values, flags', () => {
    const t = parseCommandTemplate("ffmpeg -y -ss 00:00:01 -itsoffset -1 -i {input} -t 2 -r 30000/1001 -vf \"drawtext=text='%{pts\\\\:hms}':x=(w-tw)/2\" -an -movflags +faststart {output}", 1);
    expect(t.args).toContain(String.raw`drawtext=text='%{pts\:hms}':x=(w-tw)/2`);
    expect(t.args.slice(0, 6)).toEqual(['-y', '-ss', '00:00:01', '-itsoffset', '-1', '-i']);
  });

  it('audio extraction to mp3, and {input0} as a name of {input}', () => {
    expect(parseCommandTemplate('ffmpeg -i {input0} -vn -c:a libmp3lame -q:a 4 {output}', 1).args).toEqual(['-i', '{input0}', '-vn', '-c:a', 'libmp3lame', '-q:a', '4', '{output}']);
  });

  it('metadata titles that mention a movie are text, not the movie filter', () => {
    expect(parseCommandTemplate('ffmpeg -i {input} -metadata "title=My movie" {output}', 1).args).toContain('title=My movie');
  });

  it('presets and ffmpeg_args make single-input templates', () => {
    for (const preset of ['h264_social', 'hevc_social', 'copy_mux'] as const) {
      expect(parseCommandTemplate(presetTemplate(preset, undefined), 1).inputCount).toBe(1);
    }
    expect(parseCommandTemplate(presetTemplate(undefined, '-vf scale=160:-2 -c:v libx264'), 1).args).toEqual(['-i', '{input0}', '-vf', 'scale=160:-2', '-c:v', 'libx264', '{output}']);
    expect(() => presetTemplate(undefined, '-i {input1}')).toThrow(/placeholder in ffmpeg_args/);
  });
});

describe('command templates: refused with 400 unsafe_command, naming what', () => {
  const cases: Array<[string, string, RegExp, number?]> = [
    ['";"', 'ffmpeg -i {input} {output}; rm -rf /', /";"/],
    ['"|"', 'ffmpeg -i {input} -f mp4 {output} | cat', /"\|"/],
    ['"&"', 'ffmpeg -i {input} {output} & sleep 1', /"&"/],
    ['"$"', 'ffmpeg -i {input} -metadata title=$HOME {output}', /"\$"/],
    ['"$("', 'ffmpeg -i {input} -metadata title=$(id) {output}', /"\$\("/],
    ['a backtick', 'ffmpeg -i {input} -metadata title=`id` {output}', /backtick/],
    ['rm', 'rm -rf {output}', /command "rm"/],
    ['rmdir', 'ffmpeg -i {input} rmdir {output}', /command "rmdir"/],
    ['another program', 'ffprobe -i {input} {output}', /other than ffmpeg/],
    ['a fixed output name', 'ffmpeg -i {input} /tmp/out.mp4', /"\/tmp\/out.mp4" where ffmpeg expects a file name/],
    ['a relative output name', 'ffmpeg -i {input} -c copy out.mp4 {output}', /"out.mp4" where ffmpeg expects a file name/],
    ['a fixed input name', 'ffmpeg -i /etc/passwd {output}', /-i \/etc\/passwd/],
    ['a URL input', 'ffmpeg -i http://169.254.169.254/latest {output}', /-i http/],
    ['an input the request lacks', 'ffmpeg -i {input} -i {input2} {output}', /\{input2\}: the request has 2 input files/, 2],
    ['no output', 'ffmpeg -i {input} -f null -', /"-" where ffmpeg expects a file name|no \{output\}/],
    ['two outputs', 'ffmpeg -i {input} {output} {output}', /more than once/],
    ['no input', 'ffmpeg -f lavfi -t 1 {output}', /lavfi|no input/],
    ['movie=', "ffmpeg -i {input} -vf movie=secret.mp4 {output}", /filter "movie"/],
    ['amovie=', "ffmpeg -i {input} -filter_complex 'amovie=x.wav[a];[0:a][a]amix' {output}", /";"|filter "amovie"/],
    ['amovie= in a chain', "ffmpeg -i {input} -filter_complex '[0:a]anull,amovie=x.wav' {output}", /filter "amovie"/],
    ['subtitles=', "ffmpeg -i {input} -vf subtitles=subs.srt {output}", /filter "subtitles"/],
    ['concat:', "ffmpeg -i {input} -i concat:a.mp4 {output}", /-i concat:/],
    ['http: in a filter', "ffmpeg -i {input} -vf drawtext=textfile=http://example.com/x {output}", /protocol prefix "http:"|textfile/],
    ['file: in a value', "ffmpeg -i {input} -vf 'drawtext=text=x:fontfile=file:font.ttf' {output}", /option "fontfile" of the filter "drawtext"/],
    ['pipe:', 'ffmpeg -i {input} -f mp4 pipe:1', /"pipe:1" where ffmpeg expects a file name/],
    ['fontfile=', "ffmpeg -i {input} -vf drawtext=fontfile=font.ttf:text=hi {output}", /option "fontfile" of the filter "drawtext"/],
    ['an absolute path in a filter', "ffmpeg -i {input} -vf drawtext=text=hi:x=0,lut3d=/etc/x.cube {output}", /filter "lut3d"|path/],
    ['-passlogfile', 'ffmpeg -i {input} -pass 1 -passlogfile /tmp/log {output}', /-passlogfile/],
    ['-report', 'ffmpeg -report -i {input} {output}', /-report/],
    ['-dump_attachment', 'ffmpeg -dump_attachment:t out.ttf -i {input} {output}', /-dump_attachment/],
    ['-progress', 'ffmpeg -progress progress.txt -i {input} {output}', /-progress/],
    ['-filter_complex_script', 'ffmpeg -i {input} -filter_complex_script graph.txt {output}', /-filter_complex_script/],
    ['-f concat', 'ffmpeg -f concat -i {input} {output}', /format "concat"/],
    ['-f hls', 'ffmpeg -f hls -i {input} {output}', /format "hls"/],
    ['-f tee', 'ffmpeg -i {input} -f tee {output}', /format "tee"/],
    ['an embedded placeholder', 'ffmpeg -i {input} -vf movie={input} {output}', /stand alone|movie/],
    ['an unterminated quote', "ffmpeg -i {input} -vf 'scale=1:1 {output}", /unterminated single quote/],
    ['a NUL', 'ffmpeg -i {input}\u0000 {output}', /control character/],
  ];
  it.each(cases)('%s', (_what, template, message, inputs = 1) => {
    const err = refusal(template, inputs);
    expect(err.kind).toBe('invalid_input');
    expect(err.errorCode).toBe('unsafe_command');
    expect(err.message).toMatch(message);
  });

  it('an empty template is a missing field, not an unsafe one', () => {
    expect(refusal('  ').errorCode).toBe('invalid_request');
  });
});
