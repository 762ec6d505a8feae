import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchIdentity } from '../bench/bench-identity';
import { postRunEvents, type RunEvents } from '../bench/run-events';
import { newThreadInput } from '../bench/run-stream-client';
import { waitUntil } from '../bench/wait-until';
import { shutdownTimings } from '../deploy/shutdown-timings';
import { freePort, REPO_ROOT } from 'dev-services';
import { baseImageName, ensureBaseImage } from './base-image';
import { Podman } from './podman';

/**
 * npm run image:proof: builds the real Dockerfile with podman against a locally made base image,
 * runs the image as the Helm chart does (non-root, read-only root filesystem, /tmp a tmpfs, a
 * data volume for the embedded SQLite store), checks readiness and a full run, stops it mid-run
 * as the kubelet does (`podman stop -t <grace>`: SIGTERM, then SIGKILL after the grace), checks
 * the exit code and the run saved interrupted, restarts the container and resumes the run with
 * each tool once. Prints the image's size and its start-to-ready time; exits 0 only when all holds.
 */
const IMAGE = 'localhost/agent-service:proof';
const CACHE = join(REPO_ROOT, 'node_modules', '.cache', 'image-proof');
/** Tool rounds per run: the ledger must show each of them finished exactly once. */
const DEMO_STEPS = 4;
/** The chart's arithmetic, without the preStop sleep (podman has none) and with a short drain, so the stop lands mid-run. */
const TIMINGS = shutdownTimings({
  preStopSeconds: 0,
  drainSeconds: 1,
  saveMarginSeconds: 5,
  exitMarginSeconds: 2,
});

/** POSTs a run of `threadId` (one user message) and reads its events; a refusal fails the proof. */
async function postRun(baseUrl: string, token: string, threadId: string): Promise<RunEvents> {
  const stream = await postRunEvents(
    `${baseUrl}/v1/runs`,
    { authorization: `Bearer ${token}` },
    newThreadInput(threadId, 'r1', 'go'),
  );
  if (stream.status !== 200)
    throw new Error(`POST /v1/runs for ${threadId} answered ${stream.status}`);
  return stream;
}

async function main(): Promise<void> {
  await Podman.ensureInstalled();
  const podman = new Podman(CACHE);
  const from =
    /^FROM\s+(\S+)/m.exec(readFileSync(join(REPO_ROOT, 'Dockerfile'), 'utf8'))?.[1] ?? '';
  const base = baseImageName(from);
  let started = Date.now();
  await ensureBaseImage(podman, base, CACHE);
  console.log(`base image ${base.tag} ready (${Date.now() - started} ms)`);
  started = Date.now();
  await podman.run([
    'build',
    '--pull=never',
    '--network=host',
    '-t',
    IMAGE,
    '-f',
    join(REPO_ROOT, 'Dockerfile'),
    REPO_ROOT,
  ]);
  const buildMs = Date.now() - started;
  const sizeBytes = Number(await podman.run(['image', 'inspect', IMAGE, '--format', '{{.Size}}']));
  console.log(
    `built ${IMAGE} from the Dockerfile in ${buildMs} ms: ${(sizeBytes / 1e6).toFixed(0)} MB`,
  );

  const name = `agent-proof-${process.pid}`;
  const volume = `${name}-data`;
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const { env, token } = benchIdentity('proof-user');
  const settings: Record<string, string> = {
    ...env,
    PORT: String(port),
    DEMO_STEPS: String(DEMO_STEPS),
    DEMO_TOOL_MS: '1500',
    SHUTDOWN_DRAIN_TIMEOUT_MS: String(TIMINGS.drainTimeoutMs),
    SHUTDOWN_TIMEOUT_MS: String(TIMINGS.shutdownTimeoutMs),
  };
  const ready = () =>
    waitUntil(
      async () => ((await fetch(`${baseUrl}/health/ready`)).status === 200 ? true : undefined),
      'readiness',
      60_000,
      50,
    );
  await podman.run(['volume', 'create', volume]);
  try {
    // As the chart runs it: uid 1000, read-only root filesystem, /tmp in memory, /data a volume, no capabilities.
    started = Date.now();
    await podman.run([
      'run',
      '-d',
      '--name',
      name,
      '--network=host',
      '--read-only',
      '--tmpfs',
      '/tmp',
      '-v',
      `${volume}:/data`,
      '--user',
      '1000:1000',
      '--cap-drop=ALL',
      '--security-opt',
      'no-new-privileges',
      ...Object.entries(settings).flatMap(([key, value]) => ['-e', `${key}=${value}`]),
      IMAGE,
    ]);
    await ready();
    const startToReadyMs = Date.now() - started;

    const full = await postRun(baseUrl, token, 'proof-full');
    const fullEnd = await full.terminal();
    if (fullEnd?.type !== 'RUN_FINISHED')
      throw new Error(`a full run ended with ${JSON.stringify(fullEnd)}`);

    const cut = await postRun(baseUrl, token, 'proof-cut');
    await cut.waitFor((event) => event.type === 'TOOL_CALL_RESULT', 'the first tool result');
    started = Date.now();
    await podman.run(['stop', '-t', String(TIMINGS.terminationGracePeriodSeconds), name]);
    const stopMs = Date.now() - started;
    const exitCode = Number(await podman.run(['inspect', name, '--format', '{{.State.ExitCode}}']));
    const cutEnd = await cut.terminal();

    await podman.run(['start', name]);
    await ready();
    const status = (await (
      await fetch(`${baseUrl}/v1/threads/proof-cut`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).json()) as { status: string };
    const retry = await postRun(baseUrl, token, 'proof-cut');
    const retryEnd = await retry.terminal();
    const logs = await podman.run(['logs', name]);
    const finished = [
      ...logs.matchAll(
        /"msg":"demo tool finished"[^\n]*"threadId":"proof-cut"[^\n]*"toolCallId":"([^"]+)"/g,
      ),
    ].map((match) => match[1]);
    const twice = finished.filter((id, index) => finished.indexOf(id) !== index);

    const rows: Array<[string, string, boolean]> = [
      ['image size', `${(sizeBytes / 1e6).toFixed(0)} MB`, true],
      ['start to ready (podman run → /health/ready 200)', `${startToReadyMs} ms`, true],
      ['a full run', fullEnd.type, true],
      [
        `podman stop -t ${TIMINGS.terminationGracePeriodSeconds} mid-run: the stream's end`,
        cutEnd?.code ?? String(cutEnd?.type),
        cutEnd?.code === 'RUN_INTERRUPTED',
      ],
      [
        'container exit code (0: SIGTERM handled, no SIGKILL)',
        `${exitCode} after ${stopMs} ms`,
        exitCode === 0,
      ],
      ['thread status after the restart', status.status, status.status === 'interrupted'],
      [
        'the retry on the restarted container',
        retryEnd?.type ?? 'no end',
        retryEnd?.type === 'RUN_FINISHED',
      ],
      [
        'demo tool calls finished twice',
        String(twice.length),
        twice.length === 0 && finished.length === DEMO_STEPS,
      ],
    ];
    console.log('\n| check | result | holds |\n| --- | --- | --- |');
    for (const [check, result, holds] of rows)
      console.log(`| ${check} | ${result} | ${holds ? 'yes' : 'NO'} |`);
    if (rows.some(([, , holds]) => !holds)) process.exitCode = 1;
  } finally {
    await podman.run(['rm', '-f', name]).catch(() => undefined);
    await podman.run(['volume', 'rm', '-f', volume]).catch(() => undefined);
    // Earlier builds' images, untagged by this one, would fill the disk run after run.
    await podman.run(['image', 'prune', '-f']).catch(() => undefined);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
