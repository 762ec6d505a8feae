import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The parts of a V8 `.cpuprofile` (what `node --cpu-prof` writes) read here. */
export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

/** A named group of samples: those whose stack has a frame (`function url`) containing one of `patterns`. */
export interface ProfileGroup {
  name: string;
  patterns: string[];
}

/** Each group's share of the samples, in `groups` order, then `other`. */
export interface GroupShare {
  name: string;
  samples: number;
  share: number;
}

/**
 * Where the time of a stopped run goes, as the shutdown benchmark's profile is read: a sample
 * counts in the first group with a frame on its stack.
 */
export const SHUTDOWN_GROUPS: readonly ProfileGroup[] = [
  { name: 'gc', patterns: ['(garbage collector)'] },
  { name: 'idle', patterns: ['(idle)'] },
  {
    name: 'event log',
    patterns: [
      'appendEventBatch',
      'retainLogBatch',
      'typeorm-run-event-log',
      'redis-run-event-log',
    ],
  },
  { name: 'run-end save', patterns: ['finished-run-rows', 'run-end-writer'] },
  { name: 'server close', patterns: ['closeHttpServer', 'closeIdleConnections'] },
  { name: 'sse', patterns: ['sse-event-stream'] },
  { name: 'abort', patterns: ['requestStop'] },
  { name: 'log writer', patterns: ['log-writer', 'loop-nudge'] },
  {
    name: 'run end',
    patterns: ['durable-run-handle', 'hook-chain', 'graceful-shutdown.hook', 'agent-run.js'],
  },
  { name: 'commits', patterns: ['typeorm/'] },
];

/**
 * Sorts a profile's samples into `groups`, from the first sample whose stack has a frame
 * containing `from` (all samples when undefined or never seen).
 *
 * @example
 * profileGroups(profile, SHUTDOWN_GROUPS, 'interruptRemaining'); // [{ name: 'gc', samples: 204, share: 0.075 }, …]
 */
export function profileGroups(
  profile: CpuProfile,
  groups: readonly ProfileGroup[],
  from?: string,
): GroupShare[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  const stackOf = (id: number | undefined): string[] => {
    const frames: string[] = [];
    for (; id !== undefined; id = parent.get(id)) {
      const frame = byId.get(id)?.callFrame;
      if (frame) frames.push(`${frame.functionName} ${frame.url}`);
    }
    return frames;
  };
  const stacks = profile.samples.map((id) => stackOf(id));
  const start =
    from === undefined
      ? 0
      : Math.max(
          0,
          stacks.findIndex((stack) => stack.some((frame) => frame.includes(from))),
        );
  const counts = new Map<string, number>([
    ...groups.map((group): [string, number] => [group.name, 0]),
    ['other', 0],
  ]);
  for (const stack of stacks.slice(start)) {
    const group = groups.find(({ patterns }) =>
      stack.some((frame) => patterns.some((pattern) => frame.includes(pattern))),
    );
    const name = group?.name ?? 'other';
    counts.set(name, counts.get(name)! + 1);
  }
  const total = stacks.length - start;
  return [...counts].map(([name, samples]) => ({
    name,
    samples,
    share: total ? samples / total : 0,
  }));
}

/** The one `.cpuprofile` in `dir` (where `node --cpu-prof-dir` wrote it at the exit). */
export function readCpuProfile(dir: string): CpuProfile {
  const [file] = readdirSync(dir).filter((name) => name.endsWith('.cpuprofile'));
  if (!file) throw new Error(`no .cpuprofile in ${dir}`);
  return JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
}

/** Shares as one line: `gc 7.5%, idle 4.0%, …`. */
export function groupsLine(shares: readonly GroupShare[]): string {
  return shares.map(({ name, share }) => `${name} ${(share * 100).toFixed(1)}%`).join(', ');
}
