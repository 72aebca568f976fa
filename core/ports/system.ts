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

/** Encrypts credentials at rest. */
export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string;
}

/** PKCE (RFC 7636) for OAuth networks that require it: a random verifier and its S256 challenge. */
export interface Pkce {
  newVerifier(): string;
  challenge(verifier: string): string;
}
