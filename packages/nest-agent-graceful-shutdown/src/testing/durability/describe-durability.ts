/// <reference types="jest" />
import type { DurabilityReport, InterruptionPoint } from './durability-report.js';
import {
  verifyDurability,
  type AgentFactory,
  type DurabilityOptions,
} from './verify-durability.js';

/** `verifyDurability`'s options, and how long its runs may take before the suite fails. */
export interface DescribeDurabilityOptions extends DurabilityOptions {
  /** For all the runs together (one per point, twice with `next`). @default 60000 */
  timeoutMs?: number;
}

const KINDS: ReadonlyArray<{ kind: InterruptionPoint['kind']; where: string }> = [
  { kind: 'pre-reasoning', where: 'at every pre-reasoning safe point' },
  { kind: 'pre-acting', where: 'at every pre-acting safe point' },
  { kind: 'mid-stream', where: 'in the middle of every streamed model answer' },
  { kind: 'mid-tool', where: 'while every tool call runs' },
];

/**
 * Registers `verifyDurability` as a suite (Jest, or Vitest with `globals: true`): the runs are
 * made once, then one case per kind of interruption point (pre-reasoning, pre-acting, mid-stream,
 * mid-tool) fails with the failures of its points, named by point; with `next`, one more case
 * for the resumes on the second version. The points are only known once the uninterrupted run
 * has been made, which is after the cases are registered: hence one case per kind, not per point.
 *
 * @example
 * describeDurability('order agent', makeAgent, { input: 'Order 42: charge and send the receipt' });
 */
export function describeDurability(
  name: string,
  makeAgent: AgentFactory,
  options: DescribeDurabilityOptions,
): void {
  describe(`${name} (durability)`, () => {
    let report: DurabilityReport;

    beforeAll(async () => {
      report = await verifyDurability(makeAgent, options);
    }, options.timeoutMs ?? 60_000);

    it('runs to its answer uninterrupted', () => {
      expect(
        report.failures.filter((failure) => failure.startsWith('uninterrupted run: ')),
      ).toEqual([]);
    });

    for (const { kind, where } of KINDS) {
      it(`survives an interruption ${where}, resumed on a fresh agent`, () => {
        expect(
          failuresOf(report, (point) => !point.acrossVersions && point.point.startsWith(kind)),
        ).toEqual([]);
      });
    }

    if (options.next) {
      it('survives every interruption resumed on the next version, running no removed tool and no refused arguments', () => {
        expect(failuresOf(report, (point) => point.acrossVersions)).toEqual([]);
      });
    }
  });
}

function failuresOf(
  report: DurabilityReport,
  which: (point: DurabilityReport['points'][number]) => boolean,
): string[] {
  return report.points
    .filter(which)
    .flatMap((point) => point.failures.map((failure) => `${point.point}: ${failure}`));
}
