/** Where the token in the Token box came from: the service's dev token, or the user. */
export type TokenSource = 'dev' | 'typed';

/**
 * The bearer token every request of the page carries. In dev the service hands out a dev
 * token (`GET /console/dev-token`, only to a browser on its own machine, only while its secret
 * was made at boot); a restarted service makes a new secret, so a dev token is fetched again
 * when the service refuses the old one.
 */
export class TokenStore {
  private token = '';
  private origin: TokenSource = 'typed';
  private readonly listeners = new Set<() => void>();

  get value(): string {
    return this.token;
  }

  get source(): TokenSource {
    return this.origin;
  }

  set(token: string, source: TokenSource): void {
    if (token === this.token && source === this.origin) return;
    this.token = token;
    this.origin = source;
    for (const listener of this.listeners) listener();
  }

  /** Calls `listener` after every change; returns the unsubscription. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Asks the service for its dev token and takes it; false when it has none for this page. */
  async loadDevToken(): Promise<boolean> {
    try {
      const response = await fetch('/console/dev-token', { cache: 'no-store' });
      if (!response.ok) return false;
      const { token } = (await response.json()) as { token?: unknown };
      if (typeof token !== 'string' || token === '') return false;
      this.set(token, 'dev');
      return true;
    } catch {
      return false; // the service is down: the caller tries again later
    }
  }
}
