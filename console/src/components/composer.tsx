import { useState } from 'preact/hooks';

/** The message box with Send, and Stop for the run in progress. Ctrl+Enter sends too. */
export function Composer(props: {
  running: boolean;
  canSend: boolean;
  onSend: (text: string) => void;
  onStop: () => void;
}) {
  const [text, setText] = useState('');
  const submit = () => {
    const message = text.trim();
    if (!message || !props.canSend) return;
    props.onSend(message);
    setText('');
  };
  return (
    <form
      class="composer"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <label for="message">Message</label>
      <textarea
        id="message"
        rows={3}
        value={text}
        onInput={(event) => setText(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) submit();
        }}
      />
      <div class="actions">
        <button type="submit" class="primary" disabled={!props.canSend}>
          Send
        </button>
        <button type="button" disabled={!props.running} onClick={props.onStop}>
          Stop
        </button>
      </div>
    </form>
  );
}
