/** The hexagon's dependency direction, enforced in CI: core → nothing; workflows → core types + the workflow SDK; adapters → core; apps → everything. */

/**
 * Workflow code runs in Temporal's deterministic sandbox: the workflow files and the helpers they
 * share (workflows/support/: the movable timer, the signal definitions).
 */
const WORKFLOW_CODE = '^workflows/(.+[.]workflow[.]ts|support/.+[.]ts)$';
/**
 * The one core file workflow code may import at run time: the workflow, signal and id names it
 * shares with adapters/temporal (plain data, no imports), so each name is written once.
 */
const WORKFLOW_NAMES = '^core/ports/workflow-names[.]ts$';
/**
 * The one core rule workflow code runs: the calls of an upload's target (pure transitions, types
 * only from core), shared with the in-memory runner so the two cannot drift.
 */
const UPLOAD_STEPS = '^core/usecases/upload-steps[.]ts$';

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
      comment: 'Workflow code imports at run time only @temporalio/workflow, other workflow code, the workflow names and the upload steps; core and activities only as types.',
      severity: 'error',
      from: { path: WORKFLOW_CODE },
      to: { dependencyTypesNot: ['type-only'], pathNot: ['^node_modules/@temporalio/workflow/', WORKFLOW_CODE, WORKFLOW_NAMES, UPLOAD_STEPS] },
    },
    {
      name: 'workflow-names-stand-alone',
      comment: 'Bundled into the workflow sandbox: it must import nothing.',
      severity: 'error',
      from: { path: WORKFLOW_NAMES },
      to: {},
    },
    {
      name: 'upload-steps-import-types-only',
      comment: 'Bundled into the workflow sandbox: it imports nothing at run time.',
      severity: 'error',
      from: { path: UPLOAD_STEPS },
      to: { dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'workflow-files-type-imports',
      severity: 'error',
      from: { path: WORKFLOW_CODE },
      to: { dependencyTypes: ['type-only'], pathNot: '^(core/|workflows/|node_modules/@temporalio/)' },
    },
    {
      name: 'activities-use-core-and-activity-sdk',
      severity: 'error',
      from: { path: '^workflows/', pathNot: WORKFLOW_CODE },
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
    // node_modules may be a symlink (git worktrees share one install): rules name it by its path here.
    preserveSymlinks: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
