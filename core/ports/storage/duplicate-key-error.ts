/** A unique key of the store (an email, a request id, an id) is taken. */
export class DuplicateKeyError extends Error {
  constructor(what: string) {
    super(`${what} already exists`);
    this.name = 'DuplicateKeyError';
  }
}
