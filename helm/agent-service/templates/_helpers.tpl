{{/*
Expand the name of the chart.
*/}}
{{- define "agent-service.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
Create a default fully qualified app name.
We truncate at 63 chars because some Kubernetes name fields are limited to this (by the DNS naming spec).
If release name contains chart name it will be used as a full name.
*/}}
{{- define "agent-service.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/*
Create chart name and version as used by the chart label.
*/}}
{{- define "agent-service.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
Common labels
*/}}
{{- define "agent-service.labels" -}}
helm.sh/chart: {{ include "agent-service.chart" . }}
{{ include "agent-service.selectorLabels" . }}
{{- if .Chart.AppVersion }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
{{- end }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{/*
Selector labels
*/}}
{{- define "agent-service.selectorLabels" -}}
app.kubernetes.io/name: {{ include "agent-service.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/*
Create the name of the service account to use
*/}}
{{- define "agent-service.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "agent-service.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/*
The image, with the chart's appVersion as the default tag.
*/}}
{{- define "agent-service.image" -}}
{{- printf "%s:%s" .Values.image.repository (.Values.image.tag | default .Chart.AppVersion) }}
{{- end }}

{{/*
The name of an existing Secret: the one given, else the release's fullname.
Usage: include "agent-service.secretName" (dict "ref" .Values.secrets.databaseUrl "context" $)
*/}}
{{- define "agent-service.secretName" -}}
{{- .ref.name | default (include "agent-service.fullname" .context) }}
{{- end }}

{{/*
Shutdown timings. All derived from the four .Values.shutdown inputs, so the pod's grace period
and the service's own deadlines cannot disagree. The same arithmetic, in TypeScript, is
shutdownTimings() in src/deploy/shutdown-timings.ts; a test renders this chart and compares.

Timeline from the pod's deletion:
  preStop sleep (endpoints stop sending traffic) -> SIGTERM -> drain (in-flight runs go on)
  -> save (remaining runs stop at a safe point and are saved) -> exit (SHUTDOWN_TIMEOUT_MS after
  SIGTERM at the latest) -> exitMargin -> SIGKILL (terminationGracePeriodSeconds after deletion).
*/}}

{{/* SHUTDOWN_DRAIN_TIMEOUT_MS = drain * 1000 */}}
{{- define "agent-service.drainTimeoutMs" -}}
{{- mul .Values.shutdown.drainSeconds 1000 }}
{{- end }}

{{/* SHUTDOWN_TIMEOUT_MS = (drain + saveMargin) * 1000, counted from SIGTERM */}}
{{- define "agent-service.shutdownTimeoutMs" -}}
{{- mul (add .Values.shutdown.drainSeconds .Values.shutdown.saveMarginSeconds) 1000 }}
{{- end }}

{{/* terminationGracePeriodSeconds = preStop + drain + saveMargin + exitMargin, counted from deletion */}}
{{- define "agent-service.terminationGracePeriodSeconds" -}}
{{- add .Values.shutdown.preStopSeconds .Values.shutdown.drainSeconds .Values.shutdown.saveMarginSeconds .Values.shutdown.exitMarginSeconds }}
{{- end }}

{{/*
Scale-in. A removed pod drains for up to terminationGracePeriodSeconds while its runs end or move
to the pods that stay, so the figures the autoscaler reads in that time say little about the
load left. The stabilization window (twice the grace period, within Kubernetes' 300 s default and
its 3600 s maximum) outlasts a drain, and the policy removes `pods` per grace period (at most
1800 s, the API's maximum). The same arithmetic, in TypeScript, is scaleDownBehavior() in
tools/deploy/scale-down-behavior.ts; a test renders this chart and compares.
*/}}
{{- define "agent-service.scaleDownStabilizationSeconds" -}}
{{- $window := .Values.autoscaling.scaleDown.stabilizationWindowSeconds -}}
{{- if kindIs "invalid" $window }}
{{- $grace := include "agent-service.terminationGracePeriodSeconds" . | int }}
{{- min 3600 (max 300 (mul 2 $grace)) }}
{{- else }}
{{- $window | int }}
{{- end }}
{{- end }}

{{- define "agent-service.scaleDownPeriodSeconds" -}}
{{- $period := .Values.autoscaling.scaleDown.periodSeconds -}}
{{- if kindIs "invalid" $period }}
{{- min 1800 (include "agent-service.terminationGracePeriodSeconds" . | int) }}
{{- else }}
{{- $period | int }}
{{- end }}
{{- end }}

{{/* The autoscaling/v2 behavior of the chart's HPA and of the HPA KEDA makes from the ScaledObject. */}}
{{- define "agent-service.scaleBehavior" -}}
scaleDown:
  stabilizationWindowSeconds: {{ include "agent-service.scaleDownStabilizationSeconds" . }}
  policies:
    - type: Pods
      value: {{ .Values.autoscaling.scaleDown.pods }}
      periodSeconds: {{ include "agent-service.scaleDownPeriodSeconds" . }}
{{- end }}

{{/* The release's pods as Prometheus labels them: the Deployment's pods are <fullname>-<hash>-<suffix>. */}}
{{- define "agent-service.runsInFlightQuery" -}}
{{- .Values.autoscaling.keda.query | default (printf "sum(agent_runs_in_flight{namespace=%q, pod=~%q})" .Release.Namespace (printf "%s-[a-z0-9]+-[a-z0-9]+" (include "agent-service.fullname" .))) }}
{{- end }}
