import type { RunView } from '../run/run-view';

/** What happened to the run's connection (lost, interrupted, reconnected), newest last; read out as it changes. */
export function ConnectionNotices(props: { notices: RunView['notices']; reconnecting: boolean }) {
  return (
    <div
      class={`notices${props.reconnecting ? ' notices-warning' : ''}`}
      role="status"
      aria-label="Connection"
    >
      {props.notices.length ? (
        <ul>
          {props.notices.map((notice, index) => (
            <li key={index}>{notice.text}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
