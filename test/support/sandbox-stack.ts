import { execFileSync } from 'node:child_process';
import { startSandbox, type Sandbox } from '../../apps/sandbox/main';
import { freePort, startStack, type Stack } from './stack';

/**
 * The sandbox's simulators on random ports, and a stack over them whose API they call back at (its
 * public base URL: OAuth returns and signed media URLs). `env` adds to the stack's environment.
 */
export async function startSandboxStack(env: Record<string, string> = {}): Promise<{ sandbox: Sandbox; stack: Stack }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const sandbox = await startSandbox({ ports: 'random', heraldPublicBaseUrl: base, processingMs: 50 });
  try {
    const stack = await startStack({ ...sandbox.env, HERALD_API_PORT: String(port), HERALD_PUBLIC_BASE_URL: base, ...env });
    return { sandbox, stack };
  } catch (err) {
    await sandbox.close();
    throw err;
  }
}

/** A 5-second portrait H.264/AAC clip (720x1280, 30 fps) that every video network takes. */
export function writeTestClip(file: string): void {
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=720x1280:rate=30:duration=5', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=5',
    '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', file]);
}
