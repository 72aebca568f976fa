import type { MediaAccess } from '../../core/ports/platform';

/** For text posts: any media access is a bug in the adapter under test. */
export const noMedia: MediaAccess = {
  read(id) { throw new Error(`a text post read media ${id}`); },
  publicUrl(id) { throw new Error(`a text post asked for a URL of media ${id}`); },
  rendition(id) { throw new Error(`a text post asked for a rendition of media ${id}`); },
};
