import { execFile } from 'node:child_process';
import { userInfo } from 'node:os';

/**
 * How ffmpeg is run for a media job, from strongest to weakest:
 * - `bwrap`: bubblewrap builds a world of its own for the process: a read-only /usr (programs,
 *   libraries, fonts), the job's directory as /job, no network (a network namespace with no interface),
 *   its own pid, IPC and UTS namespaces, no environment but PATH/HOME/LANG. Herald's state,
 *   keys, configuration and every other file of the machine do not exist in it.
 * - `unshare`: where bubblewrap is missing and the worker is root: util-linux's unshare gives it
 *   a network, pid, IPC and UTS namespace of its own; it runs as the unprivileged user in the
 *   job's directory, so owner-only files (Herald's state) stay closed to it.
 * - `userns`: a worker that is not root, without bubblewrap: a user namespace with a network
 *   namespace of its own (no network); files are those of the worker's user.
 * - `none`: ffmpeg as the worker's own process (the argument check still holds).
 * In every mode: `-nostdin`, a clean environment, and prlimit's limits (CPU time, address space,
 * file size, open files, no core files), and the caller's wall-clock limit. A root worker's
 * ffmpeg runs as an unprivileged user (`herald-media`, created by ops/install.sh) through setpriv.
 */
export type SandboxMode = 'bwrap' | 'unshare' | 'userns' | 'none';

export interface SandboxLimits {
  cpuSeconds: number;
  memoryBytes: number;
  fileBytes: number;
  openFiles: number;
}

export interface SandboxOptions {
  mode: SandboxMode;
  /** A root worker's unprivileged user for ffmpeg (its numeric ids: nothing inside resolves names). */
  ids?: { uid: number; gid: number };
  /** Files shown read-only inside a bwrap sandbox: [path outside, path inside]. */
  readOnly?: Array<[string, string]>;
  limits: SandboxLimits;
}

/** Where the job's directory is inside a bwrap sandbox. */
export const SANDBOX_JOB_DIR = '/job';

const CLEAN_ENV = { PATH: '/usr/local/bin:/usr/bin:/bin', LANG: 'C.UTF-8' };

const isRoot = (): boolean => userInfo().uid === 0;

/**
 * The wrapper programs and their arguments in front of `program args` for a mode; `jobDir` is the
 * job's directory (also the caller's working directory for the child). A root worker gives the
 * user's numeric ids (`opts.ids`): bwrap then sets up the namespaces and mounts as root (it can
 * reach the owner-only scratch directory) and setpriv drops to the user inside, just before ffmpeg.
 */
export function sandboxCommand(opts: SandboxOptions, program: string, args: string[], jobDir: string | null): { file: string; args: string[]; env: NodeJS.ProcessEnv } {
  const { limits } = opts;
  const chain: string[] = [
    'prlimit', `--cpu=${Math.max(1, Math.ceil(limits.cpuSeconds))}`, `--as=${limits.memoryBytes}`, `--fsize=${limits.fileBytes}`,
    `--nofile=${limits.openFiles}`, '--core=0', '--',
  ];
  const drop = opts.ids && opts.mode !== 'none'
    ? ['setpriv', `--reuid=${opts.ids.uid}`, `--regid=${opts.ids.gid}`, '--clear-groups', '--no-new-privs', '--']
    : [];
  const env: NodeJS.ProcessEnv = { ...CLEAN_ENV, HOME: opts.mode === 'bwrap' || !jobDir ? SANDBOX_JOB_DIR : jobDir };
  // Without ids a root caller stays uid 0 of a user namespace of its own, with no capability.
  const rootInNamespace = !drop.length && isRoot();
  if (opts.mode === 'unshare') chain.push('unshare', '--net', '--ipc', '--uts', '--pid', '--fork', '--kill-child', '--', ...drop);
  if (opts.mode === 'userns') chain.push('unshare', '--user', '--map-root-user', '--net', '--');
  if (opts.mode === 'bwrap') {
    chain.push(
      'bwrap', ...(drop.length ? ['--unshare-ipc', '--unshare-pid', '--unshare-net', '--unshare-uts', '--unshare-cgroup-try'] : ['--unshare-all']),
      ...(rootInNamespace ? ['--unshare-user', '--cap-drop', 'ALL'] : []),
      '--die-with-parent', '--new-session', '--clearenv',
      // Parents bwrap makes are 0700 root's when it runs as root: made readable first.
      '--perms', '0755', '--dir', '/etc', '--perms', '0755', '--dir', '/var', '--perms', '0755', '--dir', '/var/cache',
      '--ro-bind', '/usr', '/usr', '--symlink', 'usr/lib', '/lib', '--symlink', 'usr/lib64', '/lib64', '--symlink', 'usr/bin', '/bin',
      '--ro-bind-try', '/etc/ld.so.cache', '/etc/ld.so.cache', '--ro-bind-try', '/etc/alternatives', '/etc/alternatives',
      '--ro-bind-try', '/etc/fonts', '/etc/fonts', '--ro-bind-try', '/var/cache/fontconfig', '/var/cache/fontconfig',
      '--dev', '/dev', '--tmpfs', '/tmp',
      ...(jobDir ? ['--bind', jobDir, SANDBOX_JOB_DIR, '--chdir', SANDBOX_JOB_DIR] : ['--chdir', '/']),
      ...(opts.readOnly ?? []).flatMap(([source, target]) => ['--ro-bind', source, target]),
      ...Object.entries(env).flatMap(([k, v]) => ['--setenv', k, v!]), '--', ...drop,
    );
  }
  return { file: chain[0]!, args: [...chain.slice(1), program, ...args], env };
}

/**
 * The strongest mode that works here (`auto`), or the one asked for when it works: each is tried
 * with `ffmpeg -version` inside it. An explicit mode that does not work is an error.
 */
export async function resolveSandboxMode(wanted: SandboxMode | 'auto', probe: (mode: SandboxMode) => Promise<boolean>): Promise<SandboxMode> {
  const candidates: SandboxMode[] = wanted === 'auto' ? (isRoot() ? ['bwrap', 'unshare', 'none'] : ['bwrap', 'userns', 'none']) : [wanted];
  for (const mode of candidates) if (await probe(mode)) return mode;
  throw new Error(`the media sandbox "${wanted}" does not work on this machine (ffmpeg -version failed inside it)`);
}

/** A user's uid and gid (`id`), or null when there is no such user. */
export function userIds(name: string): Promise<{ uid: number; gid: number } | null> {
  const id = (flag: string) => new Promise<number | null>((resolve) => {
    execFile('id', [flag, name], { timeout: 10_000 }, (err, stdout) => resolve(err || !/^\d+\s*$/.test(stdout) ? null : Number(stdout)));
  });
  return Promise.all([id('-u'), id('-g')]).then(([uid, gid]) => (uid === null || gid === null ? null : { uid, gid }));
}

export interface ResolvedSandbox {
  mode: SandboxMode;
  user: string;
  /** The user's ids, for a root worker to give it the job's directory. */
  ids?: { uid: number; gid: number };
}

/**
 * The sandbox a worker uses: the mode (`auto`: the strongest that works) and, for a root worker,
 * the unprivileged user (`user`, else `nobody` where ops has not created it).
 */
export async function resolveSandbox(wanted: SandboxMode | 'auto', user: string, ffmpeg: string, limits: SandboxLimits): Promise<ResolvedSandbox> {
  if (!isRoot()) return { mode: await resolveSandboxMode(wanted, probeSandbox({ limits }, ffmpeg)), user };
  for (const name of [user, 'nobody']) {
    const ids = await userIds(name);
    if (!ids || ids.uid === 0) continue;
    return { mode: await resolveSandboxMode(wanted, probeSandbox({ ids, limits }, ffmpeg)), user: name, ids };
  }
  if (wanted !== 'auto' && wanted !== 'none') throw new Error(`the media sandbox "${wanted}" needs the unprivileged user "${user}" (ops/install.sh creates it)`);
  return { mode: 'none', user };
}

/** `ffmpeg -version` in a mode, for resolveSandboxMode (with /tmp as the job's directory). */
export function probeSandbox(opts: Omit<SandboxOptions, 'mode'>, ffmpeg: string): (mode: SandboxMode) => Promise<boolean> {
  return (mode) => new Promise((resolve) => {
    const command = sandboxCommand({ ...opts, mode }, ffmpeg, ['-hide_banner', '-version'], '/tmp');
    execFile(command.file, command.args, { timeout: 30_000, env: command.env, cwd: '/tmp' }, (err) => resolve(!err));
  });
}
