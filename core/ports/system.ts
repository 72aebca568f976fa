/** Time, identifiers and cryptography: behind ports so the core stays deterministic in tests. */
export interface Clock {
  now(): Date;
}

export interface IdGenerator {
  /** A random, URL-safe identifier with an optional readable prefix. */
  next(prefix?: string): string;
}

export interface KeyHasher {
  /** A fresh API key secret (shown once). */
  newApiKey(): string;
  /** A deterministic, one-way digest used to look keys up. */
  hash(secret: string): string;
}

/**
 * Where a sealed value is stored: the kind of record, the record's key (the parts of its unique
 * key, in order) and the field. Built in one place, core/domain/sealed-fields.ts.
 */
export interface SealedAt {
  record: string;
  key: readonly string[];
  field: string;
}

/**
 * Encrypts credentials at rest. Each sealed value is bound to where it is stored (`at`): opened
 * with any other `at`, it throws, so a sealed text copied into another record or field is useless.
 */
export interface SecretBox {
  seal(plain: string, at: SealedAt): string;
  /** Also opens a text sealed before values were bound (`isUnbound`), wherever it is. */
  open(sealed: string, at: SealedAt): string;
  /** Sealed before values were bound to their record: it opens anywhere until sealed again. */
  isUnbound(sealed: string): boolean;
}

/** PKCE (RFC 7636) for OAuth networks that require it: a random verifier and its S256 challenge. */
export interface Pkce {
  newVerifier(): string;
  challenge(verifier: string): string;
}
