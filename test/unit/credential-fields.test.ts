import { resolveSettings } from '../../core/domain/settings';
import { credentialField, readCredentials } from '../../adapters/platforms/kit/credentials';

const schema = {
  fields: [
    credentialField({ name: 'token', type: 'string', required: true, description: 'The bot token from the network.' }),
    credentialField({ name: 'label', type: 'string' }),
  ],
  check: (values: Record<string, unknown>) =>
    (typeof values.token === 'string' && !values.token.includes(':') ? [{ field: 'token', message: 'token must have a colon' }] : []),
} as const;

describe('credential fields', () => {
  it('a required field that is absent, null or empty is a violation naming it', () => {
    for (const token of [undefined, null, '']) {
      expect(resolveSettings('net', schema, { token }, { endpoint: 'text', mediaCount: 0 }).violations)
        .toEqual([{ field: 'token', message: 'token is required' }]);
    }
  });

  it('reads the declared fields only, converted', () => {
    expect(readCredentials(schema, { token: 'a:b', label: 7, profile_username: 'alice' })).toEqual({ token: 'a:b', label: '7' });
  });

  it("refuses with invalid_input naming the field, followed by the field's description", () => {
    expect(() => readCredentials(schema, {})).toThrow(expect.objectContaining({
      kind: 'invalid_input', message: 'token is required. The bot token from the network.', details: { field: 'token' },
    }));
    expect(() => readCredentials(schema, { token: 'ab' })).toThrow(expect.objectContaining({
      kind: 'invalid_input', message: 'token must have a colon. The bot token from the network.', details: { field: 'token' },
    }));
  });
});
