import { DuplicateKeyError, type OperatorAccountRepository } from '../../../core/ports/storage';
import { anOperator } from '../../support/mothers';
import { freshForEachTest, type MakeRepository } from './repository-under-test';

/** The behaviour every OperatorAccountRepository adapter must show. Each test gets a fresh, empty one from `make`. */
export function operatorAccountsContract(name: string, make: MakeRepository<OperatorAccountRepository>): void {
  describe(`Storage contract: ${name}`, () => {
    let operators: OperatorAccountRepository;
    freshForEachTest(make, (repository) => {
      operators = repository;
    });

    describe('operator accounts', () => {
      it('stores an account and finds it by id and by email, dates as Date', async () => {
        const account = anOperator({ plan: 'basic' });
        await operators.insert(account);

        const byId = await operators.findById(account.id);
        const byEmail = await operators.findByEmail(account.email);

        expect(byId).toEqual(account);
        expect(byEmail).toEqual(account);
        expect(byId?.createdAt).toBeInstanceOf(Date);
        expect(byId).not.toHaveProperty('_id');
      });

      it('answers null for an unknown id or email', async () => {
        await operators.insert(anOperator());

        expect(await operators.findById('no-such-account')).toBeNull();
        expect(await operators.findByEmail('nobody@example.test')).toBeNull();
      });

      it('rejects a second account with the same email and keeps the first', async () => {
        const first = anOperator({ email: 'taken@example.test' });
        await operators.insert(first);

        await expect(operators.insert(anOperator({ email: 'taken@example.test' }))).rejects.toBeInstanceOf(
          DuplicateKeyError,
        );
        expect(await operators.findByEmail('taken@example.test')).toEqual(first);
      });

      it('updates the plan of one account only', async () => {
        const account = anOperator({ plan: 'free' });
        const other = anOperator({ plan: 'free' });
        await operators.insert(account);
        await operators.insert(other);

        await operators.updatePlan(account.id, 'business');

        expect(await operators.findById(account.id)).toEqual({ ...account, plan: 'business' });
        expect(await operators.findById(other.id)).toEqual(other);
      });

      it('ignores a plan update of an unknown account', async () => {
        await operators.updatePlan('no-such-account', 'basic');

        expect(await operators.findById('no-such-account')).toBeNull();
      });

      it('hands out copies: mutating inputs or results does not change stored state', async () => {
        const account = anOperator({ plan: 'free' });
        await operators.insert(account);
        const snapshot = structuredClone(account);

        account.plan = 'advanced';
        account.createdAt.setTime(0);
        const read = await operators.findById(snapshot.id);
        read!.email = 'mutated@example.test';
        read!.createdAt.setTime(1);

        expect(await operators.findById(snapshot.id)).toEqual(snapshot);
      });
    });
  });
}
