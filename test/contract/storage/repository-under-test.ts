/** One adapter's repository, fresh and empty, and how to throw it away after the test. */
export interface RepositoryUnderTest<R> {
  repository: R;
  cleanup(): Promise<void>;
}

export type MakeRepository<R> = () => Promise<RepositoryUnderTest<R>>;

/**
 * Gives every test of the enclosing describe a fresh repository from `make` (handed to `use`)
 * and cleans it up afterwards.
 */
export function freshForEachTest<R>(make: MakeRepository<R>, use: (repository: R) => void): void {
  let current: RepositoryUnderTest<R> | undefined;

  beforeEach(async () => {
    current = await make();
    use(current.repository);
  });

  afterEach(async () => {
    const done = current;
    current = undefined;
    if (done) await done.cleanup();
  });
}
