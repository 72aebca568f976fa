/** Record validation as the PDS checks app.bsky.feed.post / threadgate / postgate records against the lexicons. */
import { IMAGE_MAX_BYTES, POST, POSTGATE, THREADGATE, VIDEO_BLOB_MAX_BYTES, type BlueskyState } from './state';
import { AT_URI, CID, DATETIME, graphemeCount, invalidRequest, isObj, LANG, megabytes, XrpcError } from './xrpc';

export function createBlueskyLexicon(s: BlueskyState) {
  const { blobs } = s;

  function reject(collection: string, path: string, what: string): never {
    throw invalidRequest(`Invalid ${collection} record: ${path} ${what}`);
  }

  function checkStrongRef(collection: string, path: string, v: unknown): void {
    if (!isObj(v) || typeof v.uri !== 'string' || !AT_URI.test(v.uri)) reject(collection, `${path}/uri`, 'must be a valid at-uri');
    if (typeof v.cid !== 'string' || !CID.test(v.cid)) reject(collection, `${path}/cid`, 'must be a cid string');
  }

  /** A blob reference must name a blob this repo uploaded, within the field's type and size. */
  function checkBlob(did: string, path: string, v: unknown, accept: string, maxSize: number): void {
    if (!isObj(v) || v.$type !== 'blob' || !isObj(v.ref) || typeof v.ref.$link !== 'string' || typeof v.mimeType !== 'string' || typeof v.size !== 'number') {
      reject(POST, path, 'should be a blob ref');
    }
    const blob = blobs.get(`${did} ${v.ref.$link}`);
    if (!blob) throw new XrpcError(400, 'BlobNotFound', `Could not find blob: ${v.ref.$link}`);
    if (!blob.mimeType.startsWith(accept)) throw new XrpcError(400, 'InvalidMimeType', `Wrong type of file. It is ${blob.mimeType} but it must match ${accept}*.`);
    if (blob.size > maxSize) throw new XrpcError(400, 'BlobTooLarge', `This file is too large. It is ${megabytes(blob.size)} but the maximum size is ${megabytes(maxSize)}.`);
  }

  function checkAspect(path: string, v: unknown): void {
    if (v === undefined) return;
    if (!isObj(v) || !Number.isInteger(v.width) || !Number.isInteger(v.height) || (v.width as number) < 1 || (v.height as number) < 1) {
      reject(POST, path, 'must be {width, height} positive integers');
    }
  }

  function checkMedia(did: string, path: string, embed: Record<string, unknown>): void {
    if (embed.$type === 'app.bsky.embed.images') {
      const images = embed.images;
      if (!Array.isArray(images) || images.length < 1) reject(POST, `${path}/images`, 'must be a non-empty array');
      if (images.length > 4) reject(POST, `${path}/images`, 'must not have more than 4 elements');
      images.forEach((img: unknown, i) => {
        if (!isObj(img)) reject(POST, `${path}/images/${i}`, 'must be an object');
        if (typeof img.alt !== 'string') reject(POST, `${path}/images/${i}`, 'must have the property "alt"');
        checkBlob(did, `${path}/images/${i}/image`, img.image, 'image/', IMAGE_MAX_BYTES);
        checkAspect(`${path}/images/${i}/aspectRatio`, img.aspectRatio);
      });
      return;
    }
    if (embed.$type === 'app.bsky.embed.video') {
      checkBlob(did, `${path}/video`, embed.video, 'video/mp4', VIDEO_BLOB_MAX_BYTES);
      if (embed.alt !== undefined && (typeof embed.alt !== 'string' || graphemeCount(embed.alt) > 1000)) reject(POST, `${path}/alt`, 'must be a string of at most 1000 graphemes');
      checkAspect(`${path}/aspectRatio`, embed.aspectRatio);
      return;
    }
    reject(POST, `${path}/$type`, `has an unsupported embed type ${String(embed.$type)}`);
  }

  function checkPost(did: string, r: Record<string, unknown>): void {
    if (typeof r.text !== 'string') reject(POST, 'Record', 'must have the property "text"');
    const textBytes = Buffer.byteLength(r.text, 'utf8');
    if (graphemeCount(r.text) > 300) reject(POST, 'Record/text', 'must not be longer than 300 graphemes');
    if (textBytes > 3000) reject(POST, 'Record/text', 'must not be longer than 3000 characters');
    if (typeof r.createdAt !== 'string' || !DATETIME.test(r.createdAt) || Number.isNaN(Date.parse(r.createdAt))) reject(POST, 'Record/createdAt', 'must be a valid datetime');
    if (r.langs !== undefined) {
      if (!Array.isArray(r.langs) || r.langs.length > 3) reject(POST, 'Record/langs', 'must be an array of at most 3 elements');
      r.langs.forEach((l: unknown, i) => { if (typeof l !== 'string' || !LANG.test(l)) reject(POST, `Record/langs/${i}`, 'must be a well-formed BCP-47 language tag'); });
    }
    if (r.labels !== undefined) {
      const labels = r.labels;
      if (!isObj(labels) || labels.$type !== 'com.atproto.label.defs#selfLabels' || !Array.isArray(labels.values) || labels.values.length > 10) {
        reject(POST, 'Record/labels', 'must be com.atproto.label.defs#selfLabels with at most 10 values');
      }
      labels.values.forEach((v: unknown, i) => {
        if (!isObj(v) || typeof v.val !== 'string' || !v.val || Buffer.byteLength(v.val) > 128) reject(POST, `Record/labels/values/${i}/val`, 'must be a string of at most 128 bytes');
      });
    }
    if (r.facets !== undefined) {
      if (!Array.isArray(r.facets)) reject(POST, 'Record/facets', 'must be an array');
      r.facets.forEach((f: unknown, i) => {
        const at = `Record/facets/${i}`;
        if (!isObj(f) || !isObj(f.index) || !Array.isArray(f.features) || !f.features.length) reject(POST, at, 'must have index and features');
        const [start, end] = [f.index.byteStart, f.index.byteEnd];
        if (typeof start !== 'number' || typeof end !== 'number' || !Number.isInteger(start) || !Number.isInteger(end) || start < 0 || start >= end || end > textBytes) {
          reject(POST, `${at}/index`, 'must be a byte range inside the text');
        }
        f.features.forEach((feature: unknown, j) => {
          const ft = `${at}/features/${j}`;
          if (!isObj(feature)) reject(POST, ft, 'must be an object');
          if (feature.$type === 'app.bsky.richtext.facet#link') {
            try { new URL(String(feature.uri)); } catch { reject(POST, `${ft}/uri`, 'must be a uri'); }
          } else if (feature.$type === 'app.bsky.richtext.facet#mention') {
            if (typeof feature.did !== 'string' || !feature.did.startsWith('did:')) reject(POST, `${ft}/did`, 'must be a did');
          } else if (feature.$type === 'app.bsky.richtext.facet#tag') {
            if (typeof feature.tag !== 'string' || !feature.tag || Buffer.byteLength(feature.tag) > 640) reject(POST, `${ft}/tag`, 'must be a string of at most 640 bytes');
          } else reject(POST, `${ft}/$type`, 'must be a known facet feature');
        });
      });
    }
    if (r.reply !== undefined) {
      if (!isObj(r.reply)) reject(POST, 'Record/reply', 'must be an object');
      checkStrongRef(POST, 'Record/reply/root', r.reply.root);
      checkStrongRef(POST, 'Record/reply/parent', r.reply.parent);
    }
    if (r.embed !== undefined) {
      const embed = r.embed;
      if (!isObj(embed)) reject(POST, 'Record/embed', 'must be an object');
      if (embed.$type === 'app.bsky.embed.record') {
        if (!isObj(embed.record)) reject(POST, 'Record/embed/record', 'must be a strong ref');
        checkStrongRef(POST, 'Record/embed/record', embed.record);
      } else if (embed.$type === 'app.bsky.embed.recordWithMedia') {
        if (!isObj(embed.record) || !isObj(embed.media)) reject(POST, 'Record/embed', 'must have record and media');
        checkStrongRef(POST, 'Record/embed/record/record', embed.record.record);
        checkMedia(did, 'Record/embed/media', embed.media);
      } else checkMedia(did, 'Record/embed', embed);
    }
  }

  /** Gates must sit under the rkey of a post of the same repo (the lexicons' rule; the AppView ignores others). */
  function checkGateTarget(collection: string, did: string, rkey: string, post: unknown): void {
    const m = typeof post === 'string' ? AT_URI.exec(post) : null;
    if (!m) reject(collection, 'Record/post', 'must be a valid at-uri');
    if (m[1] !== did || m[2] !== POST || m[3] !== rkey) reject(collection, 'Record/post', `must be at://${did}/${POST}/${rkey}, the post with the same rkey`);
  }

  function checkRecord(did: string, collection: string, rkey: string, r: Record<string, unknown>): void {
    if (collection === POST) return checkPost(did, r);
    if (typeof r.createdAt !== 'string' || !DATETIME.test(r.createdAt)) reject(collection, 'Record/createdAt', 'must be a valid datetime');
    checkGateTarget(collection, did, rkey, r.post);
    if (collection === THREADGATE) {
      if (r.allow === undefined) return;
      if (!Array.isArray(r.allow) || r.allow.length > 5) reject(THREADGATE, 'Record/allow', 'must be an array of at most 5 rules');
      r.allow.forEach((rule: unknown, i) => {
        const kinds = ['mentionRule', 'followerRule', 'followingRule', 'listRule'].map((k) => `${THREADGATE}#${k}`);
        if (!isObj(rule) || !kinds.includes(String(rule.$type))) reject(THREADGATE, `Record/allow/${i}`, `must be one of ${kinds.join(', ')}`);
        if (rule.$type === `${THREADGATE}#listRule` && (typeof rule.list !== 'string' || !AT_URI.test(rule.list))) {
          reject(THREADGATE, `Record/allow/${i}/list`, 'must be a valid at-uri');
        }
      });
      return;
    }
    if (r.embeddingRules !== undefined) {
      if (!Array.isArray(r.embeddingRules) || r.embeddingRules.length > 5) reject(POSTGATE, 'Record/embeddingRules', 'must be an array of at most 5 rules');
      r.embeddingRules.forEach((rule: unknown, i) => {
        if (!isObj(rule) || rule.$type !== `${POSTGATE}#disableRule`) reject(POSTGATE, `Record/embeddingRules/${i}`, `must be ${POSTGATE}#disableRule`);
      });
    }
  }

  return { checkRecord };
}
