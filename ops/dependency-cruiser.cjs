/** The hexagon's dependency direction, enforced in CI: core → nothing; workflows → core types + the workflow SDK; adapters → core; apps → everything. */
module.exports = {
  forbidden: [
    {
      name: 'core-imports-only-core',
      comment: 'core/ is framework-free: no packages, no Node built-ins, no outer layers.',
      severity: 'error',
      from: { path: '^core/' },
      to: { pathNot: '^core/' },
    },
    {
      name: 'workflow-files-are-deterministic',
      comment: 'Workflow files import only @temporalio/workflow at run time; core and activities only as types.',
      severity: 'error',
      from: { path: '^workflows/.+[.]workflow[.]ts$' },
      to: { dependencyTypesNot: ['type-only'], pathNot: '^(node_modules/@temporalio/workflow/|workflows/.+[.]workflow[.]ts$)' },
    },
    {
      name: 'workflow-files-type-imports',
      severity: 'error',
      from: { path: '^workflows/.+[.]workflow[.]ts$' },
      to: { dependencyTypes: ['type-only'], pathNot: '^(core/|workflows/|node_modules/@temporalio/)' },
    },
    {
      name: 'activities-use-core-and-activity-sdk',
      severity: 'error',
      from: { path: '^workflows/', pathNot: '[.]workflow[.]ts$' },
      to: { pathNot: '^(core/|workflows/|node_modules/@temporalio/(activity|common|workflow)/)' },
    },
    {
      name: 'adapters-depend-on-core-only',
      comment: 'Adapters implement core ports; they never reach into apps, workflows or ops.',
      severity: 'error',
      from: { path: '^adapters/' },
      to: { path: '^(apps|workflows|ops|test)/' },
    },
    {
      name: 'nothing-imports-apps',
      comment: 'apps/ are the composition roots.',
      severity: 'error',
      from: { pathNot: '^(apps|test)/' },
      to: { path: '^apps/' },
    },
    {
      name: 'simulators-stand-alone',
      comment: 'Simulators play the networks: they share no code with Herald itself.',
      severity: 'error',
      from: { path: '^ops/simulators/' },
      to: { path: '^(core|adapters|workflows|apps)/' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true, dependencyTypesNot: ['type-only'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|\\.tools|\\.herald)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
