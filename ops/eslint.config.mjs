// Lint rules that types cannot express: Temporal workflow determinism and "only apps/ reads the environment".
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.tools/**', '.herald/**'] },
  {
    files: ['core/**/*.ts', 'adapters/**/*.ts', 'workflows/**/*.ts', 'apps/**/*.ts'],
    languageOptions: { parser: tseslint.parser, parserOptions: { project: './tsconfig.json' } },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
    },
  },
  {
    files: ['core/**/*.ts', 'adapters/**/*.ts', 'workflows/**/*.ts'],
    rules: {
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Only apps/ reads the environment: pass settings in through factories.' }],
    },
  },
  {
    // samples-typescript's workflow rules: workflow code (workflow files, workflows/support/ and the
    // core upload steps they run) is replayed and must be deterministic.
    files: ['workflows/**/*.workflow.ts', 'workflows/support/**/*.ts', 'core/usecases/upload-steps.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { group: ['node:*', 'fs', 'path', 'crypto', 'http', 'https', 'net', 'os', 'child_process', 'timers'], message: 'No Node built-ins in workflow code.' },
          { group: ['**/adapters/**', '**/apps/**', 'mongodb', 'ioredis', 'koa', '@temporalio/activity', '@temporalio/client', '@temporalio/worker'], message: 'Workflows reach the world only through activities.' },
        ],
      }],
      'no-restricted-syntax': ['error',
        { selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']", message: 'Use workflow time from the SDK, not Date.now().' },
        { selector: "CallExpression[callee.object.name='Math'][callee.property.name='random']", message: 'Use uuid4() from @temporalio/workflow, not Math.random().' },
        { selector: "CallExpression[callee.name='setTimeout']", message: 'Use sleep() from @temporalio/workflow.' },
        { selector: "CallExpression[callee.name='setInterval']", message: 'Use sleep() in a loop from @temporalio/workflow.' },
      ],
      '@typescript-eslint/no-floating-promises': 'error',
    },
  },
);
