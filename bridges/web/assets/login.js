// The sign-in link carries its one-time token after '#', which never leaves the browser in a URL.
const status = document.getElementById('status');
const token = decodeURIComponent(location.hash.slice(1));
history.replaceState(null, '', '/login');

async function signIn() {
  if (!token) {
    status.textContent = 'This link has no sign-in token. Send /web to mindlink for a new one.';
    return;
  }
  const res = await fetch('/api/login', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ token }),
    credentials: 'same-origin',
  });
  if (res.ok) {
    location.replace('/');
    return;
  }
  const body = await res.json().catch(() => ({}));
  status.textContent = body.error ?? 'Could not sign in. Send /web to mindlink for a new link.';
  status.classList.add('problem');
}

signIn().catch(() => {
  status.textContent = 'mindlink cannot be reached. Is it running?';
  status.classList.add('problem');
});
