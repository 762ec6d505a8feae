{{/*
Fails the render when an object of metrics.* is on while the service serves no metrics.
Usage: include "agent-service.requireMetrics" (dict "what" "metrics.serviceMonitor.enabled" "context" $)
*/}}
{{- define "agent-service.requireMetrics" -}}
{{- if not .context.Values.config.metricsEnabled }}
{{- fail (printf "%s needs config.metricsEnabled: true (the service serves no /metrics without it); turn one on or the other off" .what) }}
{{- end }}
{{- end }}

{{/*
The hard deadline of a shutdown in seconds from SIGTERM (SHUTDOWN_TIMEOUT_MS / 1000): the
budget the shutdown alert compares a pod's shutdown with.
*/}}
{{- define "agent-service.shutdownBudgetSeconds" -}}
{{- add .Values.shutdown.drainSeconds .Values.shutdown.saveMarginSeconds }}
{{- end }}
