/** A small API client for seeding end-to-end tests through the real HTTP API, as a signed-in user would. */
export class HttpSession {
  private cookie = '';
  private csrf = '';

  constructor(readonly base: string) {}

  async signIn(username: string, password: string): Promise<this> {
    const res = await fetch(`${this.base}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password }),
    });
    if (!res.ok) throw new Error(`sign-in as ${username} failed: ${res.status} ${await res.text()}`);
    const set = res.headers.getSetCookie().find((c) => c.startsWith('athar_session='));
    if (!set) throw new Error('sign-in set no session cookie');
    this.cookie = set.split(';')[0] as string;
    this.csrf = ((await res.json()) as { csrfToken: string }).csrfToken;
    return this;
  }

  async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.base}${path}`, {
      method,
      headers: {
        cookie: this.cookie,
        ...(method === 'GET' ? {} : { 'x-csrf-token': this.csrf }),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  get<T>(path: string): Promise<T> {
    return this.request<T>('GET', path);
  }

  post<T>(path: string, body: unknown = {}): Promise<T> {
    return this.request<T>('POST', path, body);
  }
}
