import type { RunView, StepView } from '../run/run-view';

function Step({ step, run }: { step: StepView; run: RunView }) {
  const calls = step.toolCallIds
    .map((id) => run.toolCalls[id])
    .filter((call) => call !== undefined);
  return (
    <li class={`step step-${step.kind}${step.done || step.cut ? '' : ' step-active'}`}>
      <span class="step-kind">{step.kind}</span>
      {step.done || step.cut ? null : <span class="step-progress">in progress…</span>}
      {step.cut ? (
        <span class="step-detail">cut by the server shutdown; done again after the resume</span>
      ) : null}
      {calls.map((call) =>
        step.kind === 'acting' ? (
          <span key={call.id} class="step-detail">
            {call.name} → {call.result ?? 'running…'}
          </span>
        ) : (
          <span key={call.id} class="step-detail">
            asks for {call.name}({call.args})
          </span>
        ),
      )}
      {step.text ? <span class="step-detail step-answer">{step.text}</span> : null}
    </li>
  );
}

/** The current run's steps as they stream: reasoning and acting, the tool calls and their results, the answer. */
export function RunSteps({ run }: { run: RunView }) {
  if (run.steps.length === 0 && !run.outcome) return null;
  return (
    <section class="steps" aria-label="Run steps">
      <h3>Run steps</h3>
      <ol>
        {run.steps.map((step, index) => (
          <Step key={index} step={step} run={run} />
        ))}
      </ol>
      {run.outcome ? <p class="outcome">{run.outcome}</p> : null}
    </section>
  );
}
