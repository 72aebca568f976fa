import { parseCommandTemplate } from '../../core/domain/ffmpeg-command';
import { HeraldError } from '../../core/domain/errors';
import { avGetToken, parseDictionary, parseFilterArguments, parseFiltergraph } from '../../core/domain/ffmpeg-syntax';
import { filtergraphFuzz } from '../support/ffmpeg-fuzz';

/**
 * The security review's payloads against media-job templates (issue 26) and their variants:
 * escaped, quoted, split across options, URL-encoded, unicode look-alikes. Every one is refused
 * at intake with 400 `unsafe_command`, naming what ffmpeg would have read.
 */

function refusal(template: string, inputs = 1): HeraldError {
  try {
    parseCommandTemplate(template, inputs);
  } catch (err) {
    if (!(err instanceof HeraldError)) throw err;
    return err;
  }
  throw new Error(`accepted: ${template}`);
}

describe('ffmpeg syntax, to the letter', () => {
  it('av_get_token: backslash escapes, quoted runs, trailing white space', () => {
    expect(avGetToken(String.raw`mo\vie=x`, 0, '=,;[').token).toBe('movie');
    expect(avGetToken(`'mo'vie=x`, 0, '=,;[').token).toBe('movie');
    expect(avGetToken(String.raw`  a\ `, 0, ',').token).toBe('a ');
    expect(avGetToken('  a  ,b', 0, ',')).toEqual({ token: 'a', end: 5 });
    expect(avGetToken(`'a,b',c`, 0, ',')).toEqual({ token: 'a,b', end: 5 });
  });

  it('a graph: labels, names with @id, arguments unescaped once', () => {
    expect(parseFiltergraph(String.raw`[0:v]sc\ale@s1=w=1\:2[out],null`)).toEqual([
      { inputs: ['0:v'], name: 'scale', instance: 's1', args: 'w=1:2', outputs: ['out'] },
      { inputs: [], name: 'null', instance: null, args: null, outputs: [] },
    ]);
  });

  it('filter arguments: keys of key characters, bare values, a second unescaping of values', () => {
    expect(parseFilterArguments(String.raw`32:h=-2: flags = x`)).toEqual([{ key: null, value: '32' }, { key: 'h', value: '-2' }, { key: 'flags', value: 'x' }]);
    expect(parseFilterArguments(String.raw`text=a\:b`)).toEqual([{ key: 'text', value: 'a:b' }]);
    // A key is a run of key characters before "=": an escape ends it, so the whole is a value.
    expect(parseFilterArguments(String.raw`te\xt=a`)).toEqual([{ key: null, value: 'text=a' }]);
    expect(parseFilterArguments('/text=a')).toEqual([{ key: '/text', value: 'a' }]);
  });

  it('a dictionary as av_dict_parse_string reads it', () => {
    expect(parseDictionary(String.raw`stats=\/tmp/x:pass=1`)).toEqual([['stats', '/tmp/x'], ['pass', '1']]);
    expect(parseDictionary('novalue')).toBeNull();
  });
});

describe('the review\'s payloads and their variants are refused', () => {
  const secret = '/work/herald/.herald/secret.key';
  const cases: Array<[string, string, RegExp]> = [
    // Critical: file read through libavfilter's unescaping
    ['movie escaped in the name', String.raw`ffmpeg -i {input} -filter_complex "mo\vie=\/etc/passwd:f=tty,scale=8:8" {output}`, /filter "movie"/],
    ['movie quoted in parts', `ffmpeg -i {input} -vf "'mo'vie=/etc/passwd" {output}`, /filter "movie"/],
    ['movie with an instance name', `ffmpeg -i {input} -vf "movie@x=/etc/passwd" {output}`, /filter "movie"/],
    ['amovie after labels', String.raw`ffmpeg -i {input} -filter_complex "[0:a]anull,am\ovie=${secret}" {output}`, /filter "amovie"/],
    ['drawtext textfile escaped', String.raw`ffmpeg -i {input} -vf "drawtext=text\file=\/etc/passwd" {output}`, /option "textfile" of the filter "drawtext"/],
    ['drawtext textfile quoted', `ffmpeg -i {input} -vf "drawtext='textfile'=/etc/passwd" {output}`, /option "textfile"|without an option name/],
    ['drawtext fontfile by position', `ffmpeg -i {input} -vf "drawtext=/etc/passwd" {output}`, /without an option name for the filter "drawtext"/],
    ['drawtext textfile after text', String.raw`ffmpeg -i {input} -vf "drawtext=text=hi:t\extfile=x" {output}`, /without an option name|option "textfile"/],
    ['a value loaded from a file (ffmpeg 6.1 "/key" syntax)', `ffmpeg -i {input} -vf "drawtext=/text=${secret}" {output}`, /option "\/text"/],
    ['sendcmd escaped', String.raw`ffmpeg -i {input} -vf "se\ndcmd=f=${secret},null" {output}`, /filter "sendcmd"/],
    ['sendcmd quoted whole', `ffmpeg -i {input} -vf "'sendcmd'=f=/etc/passwd" {output}`, /filter "sendcmd"/],
    ['zmq', 'ffmpeg -i {input} -vf zmq {output}', /filter "zmq"/],
    ['lut3d file', 'ffmpeg -i {input} -vf lut3d=file=x.cube {output}', /filter "lut3d"/],
    ['haldclut', 'ffmpeg -i {input} -i {input1} -filter_complex "[0][1]haldclut" {output}', /filter "haldclut"/],
    ['subtitles and ass', 'ffmpeg -i {input} -vf "a\\ss=x.ass" {output}', /filter "ass"/],
    ['curves psfile', 'ffmpeg -i {input} -vf curves=psfile=x.acv {output}', /filter "curves"/],
    ['metadata file', 'ffmpeg -i {input} -vf metadata=mode=print:file=/tmp/x {output}', /filter "metadata"/],
    // High: SSRF through the same bypass
    ['movie over http, escaped', String.raw`ffmpeg -i {input} -filter_complex "mo\vie=htt\p\\\:\/\/127.0.0.1\\\:9464\/metrics" {output}`, /filter "movie"/],
    ['movie URL-encoded name', 'ffmpeg -i {input} -vf "mo%76ie=http://127.0.0.1:9464/metrics" {output}', /filter "mo%76ie"/],
    ['a unicode look-alike of movie', 'ffmpeg -i {input} -vf "m\u043evie=/etc/passwd" {output}', /filter "m\u043evie"/],
    ['a fullwidth look-alike of drawtext', 'ffmpeg -i {input} -vf "\uff44rawtext=text=x" {output}', /filter/],
    // High: file create or overwrite through encoder parameters
    ['x264 stats', String.raw`ffmpeg -i {input} -c:v libx264 -x264-params stats=\/tmp/owned:pass=1 {output}`, /parameter "stats" of -x264-params/],
    ['x264 stats quoted key', `ffmpeg -i {input} -c:v libx264 -x264-params "'sta'ts=/tmp/owned:pass=1" {output}`, /parameter "stats"/],
    ['x264 stats after an allowed key', 'ffmpeg -i {input} -c:v libx264 -x264-params keyint=48:stats=/tmp/owned {output}', /parameter "stats"/],
    ['x265 csv', 'ffmpeg -i {input} -c:v libx265 -x265-params csv=/tmp/owned {output}', /parameter "csv" of -x265-params/],
    ['x265 analysis-save', 'ffmpeg -i {input} -c:v libx265 -x265-params analysis-save=/tmp/owned {output}', /parameter "analysis-save"/],
    ['x264opts stats', 'ffmpeg -i {input} -c:v libx264 -x264opts stats=/tmp/owned {output}', /parameter "stats" of -x264opts/],
    ['passlogfile', 'ffmpeg -i {input} -passlogfile /tmp/owned {output}', /option -passlogfile/],
    ['stats files', 'ffmpeg -i {input} -stats_enc_pre x {output}', /option -stats_enc_pre/],
    ['the 7.x "-/option" file syntax', 'ffmpeg -i {input} -/vf graph.txt {output}', /option -\/vf/],
    ['a filter script', 'ffmpeg -i {input} -filter_script:v graph.txt {output}', /option -filter_script/],
    ['attach', 'ffmpeg -i {input} -attach x.ttf {output}', /option -attach/],
    ['dump_attachment', 'ffmpeg -dump_attachment:t x -i {input} {output}', /option -dump_attachment/],
    ['a segment muxer', 'ffmpeg -i {input} -f segment {output}', /output format "segment"/],
    ['an image2 demuxer with a pattern', 'ffmpeg -pattern_type glob -i {input} {output}', /option -pattern_type/],
    ['an hls demuxer', 'ffmpeg -f hls -i {input} {output}', /input format "hls"/],
    ['a lavfi input', 'ffmpeg -f lavfi -i {input} {output}', /input format "lavfi"/],
    ['a protocol option', 'ffmpeg -protocol_whitelist file,http -i {input} {output}', /option -protocol_whitelist/],
    ['a codec option spelled with a bad stream specifier', 'ffmpeg -i {input} -c:v:x264 libx264 {output}', /stream specifier/],
    ['an unknown codec', 'ffmpeg -i {input} -c:v libfoo {output}', /codec "libfoo"/],
    ['a stream of an input the request lacks', 'ffmpeg -i {input} -filter_complex "[3:v]null" {output}', /stream "3:v"/],
    ['a map of an input the request lacks', 'ffmpeg -i {input} -map 2:v {output}', /stream "2:v"/],
    ['sws_flags graph header', 'ffmpeg -i {input} -vf "sws_flags=bicubic" {output}', /sws_flags|filter "sws_flags"/],
    ['an overlong command', `ffmpeg -i {input} -metadata title=${'x'.repeat(5000)} {output}`, /at most 4096/],
  ];
  it.each(cases)('%s', (_what, template, message) => {
    const err = refusal(template, 2);
    expect(err.kind).toBe('invalid_input');
    expect(err.errorCode).toBe('unsafe_command');
    expect(err.message).toMatch(message);
  });
});

describe('a generated fuzz of filter graphs', () => {
  it('is answered by acceptance or an unsafe_command refusal, never anything else, and its accepted graphs name only allowed filters', () => {
    let accepted = 0;
    for (const graph of filtergraphFuzz(4000, 26)) {
      const template = `ffmpeg -i {input} -vf "${graph.replace(/["\\]/g, '\\$&')}" {output}`;
      try {
        const t = parseCommandTemplate(template, 1);
        accepted += 1;
        // What ffmpeg receives is the graph as generated (the template's quoting undone).
        expect(t.args[3]).toBe(graph);
      } catch (err) {
        expect(err).toBeInstanceOf(HeraldError);
        expect((err as HeraldError).errorCode).toBe('unsafe_command');
      }
    }
    // The fuzz is not all refusals: its allowed fragments make graphs that pass.
    expect(accepted).toBeGreaterThan(200);
  });
});
