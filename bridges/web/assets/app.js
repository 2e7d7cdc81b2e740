// The dashboard's entry: who is signed in, which page the address names, and the live stream behind it.
import { live, me, post } from './api.js';
import { avatarView } from './avatar.js';
import { fill, h } from './dom.js';
import { signInFromLink } from './login.js';
import { dashboardView } from './rows.js';
import { worldView } from './world.js';

const main = document.getElementById('main');
const toast = document.getElementById('toast');
let close = () => {};

function signedOut() {
  close();
  document.getElementById('signout').hidden = true;
  document.getElementById('who').textContent = '';
  fill(
    main,
    h(
      'div',
      { class: 'card narrow' },
      h('p', {}, 'Not signed in.'),
      h('p', { class: 'muted' }, 'Send /web to mindlink in a chat (or type it on its console): you get a sign-in link that works once, for 10 minutes.'),
    ),
  );
}

function notify(text) {
  toast.textContent = text;
  toast.hidden = false;
  clearTimeout(notify.timer);
  notify.timer = setTimeout(() => (toast.hidden = true), 6000);
}

/** The live stream was refused: signed out, or mindlink cannot be reached (try again in a while). */
function lost() {
  me()
    .then((person) => (person ? setTimeout(route, 2000) : signedOut()))
    .catch(() => {
      notify('mindlink cannot be reached; trying again…');
      setTimeout(lost, 5000);
    });
}

/** Show the page the address names and open its live stream. */
function route() {
  close();
  const path = location.pathname.split('/').map(decodeURIComponent);
  const name = path[1] === 'avatar' ? path[2] : undefined;
  const common = { 'signed-out': signedOut };
  if (name && path[3] === 'world') {
    const view = worldView(main, name);
    document.title = `${name} · world · mindlink`;
    const stop = live(`?avatar=${encodeURIComponent(name)}&world=1`, { ...common, world: view.world, problem: view.problem, reply: (r) => notify(r.text) }, lost);
    close = () => {
      stop();
      view.close();
    };
  } else if (name) {
    const view = avatarView(main, name);
    document.title = `${name} · mindlink`;
    close = live(`?avatar=${encodeURIComponent(name)}`, { ...common, details: view.details, problem: view.problem, reply: view.reply }, lost);
  } else {
    const view = dashboardView(main);
    document.title = 'mindlink';
    close = live('', { ...common, rows: view.rows, reply: (r) => notify(r.avatar ? `[${r.avatar}] ${r.text}` : r.text) }, lost);
  }
}

document.addEventListener('click', (e) => {
  const a = e.target.closest?.('a[data-nav]');
  if (a && !e.metaKey && !e.ctrlKey && !e.shiftKey && e.button === 0) {
    e.preventDefault();
    if (a.pathname !== location.pathname) history.pushState(null, '', a.pathname);
    route();
    return;
  }
  // A tap outside an open goal closes it.
  if (!e.target.closest?.('.goal')) for (const open of document.querySelectorAll('.goal.open')) open.classList.remove('open');
});
window.addEventListener('popstate', route);

document.getElementById('signout').addEventListener('click', async () => {
  await post('/api/logout').catch(() => null);
  signedOut();
});

if (location.pathname === '/login') {
  await signInFromLink(main);
} else {
  // The page and its live stream start at once; who is signed in (and the CSRF token) comes beside them.
  route();
  const person = await me().catch(() => null);
  if (!person) signedOut();
  else {
    document.getElementById('who').textContent = person.from === 'console' ? person.name : `${person.name} · via ${person.from}`;
    document.getElementById('signout').hidden = false;
  }
}
