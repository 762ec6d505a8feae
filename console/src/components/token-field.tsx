import type { TokenSource } from '../api/token-store';

/** The bearer token every request carries; filled with the service's dev token when it has one for this browser. */
export function TokenField(props: {
  token: string;
  source: TokenSource;
  onChange: (token: string) => void;
}) {
  return (
    <div class="token">
      <label for="token">Token</label>
      <input
        id="token"
        type="text"
        autocomplete="off"
        spellcheck={false}
        value={props.token}
        onInput={(event) => props.onChange(event.currentTarget.value.trim())}
        aria-describedby="token-hint"
      />
      <p id="token-hint" class="hint">
        {props.source === 'dev' && props.token
          ? 'The dev token of this server boot (no AUTH_JWT_SECRET set): you are dev-user.'
          : 'Paste a bearer token: a JWT signed with AUTH_JWT_SECRET whose sub is your user.'}
      </p>
    </div>
  );
}
