// Signing in from a `/web` link: its one-time token comes after '#', which never leaves the browser in a URL.
import { fill, h } from './dom.js';

/** Trade the link's token for a session, then open the dashboard; say plainly when the link no longer works. */
export async function signInFromLink(main) {
  const status = h('p', { id: 'status' }, 'Signing you in…');
  fill(main, h('div', { class: 'card narrow' }, status));
  const token = decodeURIComponent(location.hash.slice(1));
  history.replaceState(null, '', '/login');
  const problem = (text) => {
    status.textContent = text;
    status.className = 'problem';
  };
  if (!token) return problem('This link has no sign-in token. Send /web to mindlink for a new one.');
  try {
    const res = await fetch('/api/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token }),
      credentials: 'same-origin',
    });
    if (res.ok) return location.replace('/');
    const body = await res.json().catch(() => ({}));
    problem(body.error ?? 'Could not sign in. Send /web to mindlink for a new link.');
  } catch {
    problem('mindlink cannot be reached. Is it running?');
  }
}
