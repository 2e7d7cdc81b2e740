// Talking to mindlink: JSON requests with the session's CSRF token, and the live event stream.

let csrf = '';

/** The signed-in person (and the CSRF token every POST carries), or null when not signed in. */
export async function me() {
  const res = await fetch('/api/me', { credentials: 'same-origin' });
  if (res.status === 401) return null;
  const body = await res.json();
  csrf = body.csrf;
  return body;
}

/** GET a JSON path; throws with the server's own words. */
export async function get(path) {
  const res = await fetch(path, { credentials: 'same-origin' });
  const body = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(body.error ?? `mindlink answered ${res.status}`);
  return body;
}

/** POST JSON; resolves with the answer (refusals included), throws when mindlink cannot be reached or refuses the request. */
export async function post(path, body = {}) {
  const res = await fetch(path, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': csrf },
    body: JSON.stringify(body),
  });
  const answer = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(answer.error ?? `mindlink answered ${res.status}`);
  return answer;
}

/** The live stream for what a page shows; `on[event](data)` for each event. Returns the function that closes it. */
export function live(query, on, closed) {
  const source = new EventSource(`/api/events${query}`);
  for (const [event, fn] of Object.entries(on)) source.addEventListener(event, (e) => fn(JSON.parse(e.data)));
  // The browser reconnects by itself after a dropped stream; a refused one (signed out, mindlink restarted) stays closed.
  source.addEventListener('error', () => source.readyState === EventSource.CLOSED && closed());
  return () => source.close();
}
