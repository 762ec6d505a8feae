/** A Grafana panel, as far as the checks read it (rows hold no queries). */
export interface Panel {
  id: number;
  type: string;
  title: string;
  datasource?: { type: string; uid: string };
  targets?: Array<{ refId: string; expr: string }>;
  panels?: Panel[];
}

/** A Grafana dashboard JSON model, as far as the checks read it. */
export interface Dashboard {
  uid: string;
  title: string;
  panels: Panel[];
  templating: { list: Array<{ name: string; type: string; query: unknown }> };
}

/** Every panel, those inside collapsed rows included. */
export function allPanels(dashboard: Dashboard): Panel[] {
  return dashboard.panels.flatMap((panel) => [panel, ...(panel.panels ?? [])]);
}

/**
 * Grafana's variables in a query replaced by what PromQL accepts in their place, so that
 * promtool can parse it: a range for `$__rate_interval`, a match-all regex for `$namespace`.
 */
export function asPlainPromql(expr: string): string {
  return expr
    .replace(/\$__rate_interval|\$__interval|\$__range/g, '5m')
    .replace(/\$\{?namespace\}?/g, '.*');
}
