import { stringify } from 'yaml';
import { findObject, type KubernetesObject } from './kubernetes-objects';

/** One metric of an Argo Rollouts AnalysisTemplate, as far as the checks read it. */
export interface AnalysisMetric {
  name: string;
  interval: string;
  count: number;
  failureLimit: number;
  successCondition: string;
  provider: { prometheus: { address: string; query: string } };
}

/** The spec of the chart's AnalysisTemplate. */
export interface AnalysisTemplateSpec {
  args: Array<{ name: string }>;
  metrics: AnalysisMetric[];
}

/** The spec of the one AnalysisTemplate among `objects`. */
export function analysisSpec(objects: KubernetesObject[]): AnalysisTemplateSpec {
  return findObject(objects, 'AnalysisTemplate').spec as AnalysisTemplateSpec;
}

/** A query as Argo Rollouts sends it to Prometheus: each `{{args.NAME}}` replaced by its value. */
export function withArgs(query: string, args: Record<string, string>): string {
  return query.replace(/\{\{\s*args\.([A-Za-z0-9_-]+)\s*\}\}/g, (whole, name: string) => {
    if (!(name in args)) throw new Error(`no value for ${whole}`);
    return args[name];
  });
}

/**
 * Whether a measurement passes a success condition of the form the chart writes,
 * `result[0] <= N` (Argo Rollouts evaluates it on the query's vector); throws on any other form.
 */
export function meetsCondition(condition: string, value: number): boolean {
  const bound = /^result\[0\] <= ([0-9.]+)$/.exec(condition)?.[1];
  if (bound === undefined)
    throw new Error(`not a condition of the form result[0] <= N: ${condition}`);
  return value <= Number(bound);
}

/** A promtool sample expectation: the query's one unlabelled value at `evalTime`. */
export interface QueryExpectation {
  expr: string;
  evalTime: string;
  value: number;
}

/**
 * A promtool unit test file (`promtool test rules`) over `series` (each `{series, values}` in
 * promtool's notation, one sample a minute) that checks each query's value.
 */
export function promqlTestFile(
  series: Array<{ series: string; values: string }>,
  expectations: QueryExpectation[],
): string {
  const promqlExprTest = expectations.map(({ expr, evalTime, value }) => ({
    expr,
    eval_time: evalTime,
    exp_samples: [{ labels: '{}', value }],
  }));
  return stringify({
    rule_files: [],
    evaluation_interval: '1m',
    tests: [{ interval: '1m', input_series: series, promql_expr_test: promqlExprTest }],
  });
}
