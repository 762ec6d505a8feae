import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { CHART_DIR, REPO_ROOT } from './kubernetes-cli';

/** A values tree as YAML parses it. */
export type Values = Record<string, unknown>;

/** A YAML file of the repository, parsed; `path` is relative to the repository root. */
export function readYaml(path: string): Values {
  return parse(readFileSync(join(REPO_ROOT, path), 'utf8')) as Values;
}

/** The chart's values.yaml. */
export function chartDefaults(): Values {
  return readYaml(join(CHART_DIR, 'values.yaml'));
}

/** The chart's values.schema.json. */
export function chartSchema(): Record<string, unknown> {
  return JSON.parse(
    readFileSync(join(REPO_ROOT, CHART_DIR, 'values.schema.json'), 'utf8'),
  ) as Record<string, unknown>;
}

function isMap(value: unknown): value is Values {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * `override` on top of `base` as helm merges a values file into the chart's: maps merge key by
 * key, anything else (lists included) replaces, and null removes the key.
 */
export function mergeValues(base: Values, override: Values): Values {
  const merged: Values = { ...base };
  for (const [key, value] of Object.entries(override)) {
    if (value === null) delete merged[key];
    else if (isMap(value) && isMap(merged[key]))
      merged[key] = mergeValues(merged[key] as Values, value);
    else merged[key] = value;
  }
  return merged;
}

/** A deep copy of `values` with the value at the dotted `path` replaced (the path's maps must exist). */
export function withValue(values: Values, path: string, value: unknown): Values {
  const copy = structuredClone(values);
  const keys = path.split('.');
  let node = copy;
  for (const key of keys.slice(0, -1)) node = node[key] as Values;
  node[keys[keys.length - 1]] = value;
  return copy;
}
