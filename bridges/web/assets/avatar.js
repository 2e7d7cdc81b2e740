// One avatar's page: its whole goal, direction, news, thought stream, notes, usage and schedules, and the
// controls. Each control sends what a chat would send; the answer shown is the chat's own.
import { post } from './api.js';
import { clock, fill, h, pill } from './dom.js';
import { items, meters } from './rows.js';

function section(title, ...body) {
  const content = h('div', { class: 'content' }, ...body);
  const el = h('section', { class: 'card' }, h('h2', {}, title), content);
  return { el, content };
}

function lines(list, empty, cls = 'lines') {
  if (list.length === 0) return h('p', { class: 'muted' }, empty);
  return h('ul', { class: cls }, list.map((l) => h('li', {}, h('time', {}, clock(l.at)), l.text)));
}

function answerLine(el, answer) {
  el.className = `answer${answer.refused ? ' refused' : ''}`;
  el.textContent = answer.avatar ? `[${answer.avatar}] ${answer.text}` : answer.text;
}

/** A text field that sends its text to `path` and shows the answer below it. */
function field(name, label, placeholder, path, onAnswer) {
  const input = h('input', { name, type: 'text', placeholder, 'aria-label': label, maxlength: '2000', autocomplete: 'off', required: true });
  const button = h('button', { class: 'btn primary', type: 'submit' }, label);
  const answer = h('p', { class: 'answer', 'data-answer': name });
  const form = h('form', { class: 'field', 'data-field': name }, input, button);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    button.disabled = true;
    try {
      const got = await post(path, { text });
      if (got.text === null) answerLine(answer, { text: 'Sent. The answer comes here when the avatar has it.' });
      else answerLine(answer, got);
      onAnswer?.(got);
      if (!got.refused) input.value = '';
    } catch (err) {
      answerLine(answer, { text: err.message, refused: true });
    } finally {
      button.disabled = false;
    }
  });
  return { el: h('div', {}, form, answer), answer };
}

/** The avatar page: `details(d)` from the live stream, `reply(r)` for posts to this page. */
export function avatarView(main, name) {
  const base = `/api/avatars/${encodeURIComponent(name)}`;
  const title = h('h1', {}, name);
  const state = h('span');
  const status = h('div', { class: 'answer', 'data-answer': 'control' });
  const control = (action) =>
    h('button', {
      class: action === 'play' ? 'btn primary' : 'btn',
      type: 'button',
      'data-action': action,
      on: {
        click: async (e) => {
          const button = e.currentTarget;
          button.disabled = true;
          try {
            answerLine(status, await post(`${base}/${action}`));
          } catch (err) {
            answerLine(status, { text: err.message, refused: true });
          } finally {
            button.disabled = false;
          }
        },
      },
    }, action === 'play' ? 'Play' : 'Stop');
  const facts = h('dl', { class: 'kv' });
  const goal = section('Goal');
  const direction = section('Open direction');
  const news = section('Latest');
  const thoughts = section('Thought stream');
  const notes = section('Its notes (TASK.md)');
  const usage = section('Usage');
  const schedules = section('Schedules');
  const seen = new Set();
  const replies = h('ul', { class: 'lines' });
  const goalField = field('goal', 'Set goal', 'collect 10 oak logs', `${base}/goal`);
  // A reply shown beside the field is not listed again below it; one that comes later (a question's answer) goes there.
  let waitingFor = null;
  const directionField = field('direction', 'Send', 'stay near the river', `${base}/direction`, (got) => {
    waitingFor = got.text === null ? got.messageId : null;
    // The later answer may have come in just before this one was read.
    const early = waitingFor && [...replies.querySelectorAll('li')].find((li) => li.dataset.replyTo === waitingFor);
    if (early) {
      waitingFor = null;
      answerLine(directionField.answer, { text: early.dataset.text, avatar: early.dataset.avatar || null });
      early.remove();
    }
    if (!got.id) return;
    seen.add(got.id);
    for (const li of replies.querySelectorAll('li')) if (li.dataset.id === got.id) li.remove();
  });
  const wholeGoal = h('p', { class: 'whole-goal', 'data-whole-goal': '' });
  const goalBy = h('p', { class: 'muted' });
  goal.content.append(wholeGoal, goalBy, goalField.el);
  const directionList = h('div');
  direction.content.append(directionList, directionField.el, replies);

  fill(
    main,
    h('a', { class: 'back', href: '/', 'data-nav': '' }, '← All avatars'),
    h('div', { class: 'heading' }, title, state, h('a', { href: `/avatar/${encodeURIComponent(name)}/world`, 'data-nav': '' }, 'World view'), h('div', { class: 'actions' }, control('play'), control('stop'))),
    status,
    h('div', { class: 'page' }, h('section', { class: 'card' }, h('h2', {}, 'Now'), facts), goal.el, direction.el, news.el, thoughts.el, notes.el, usage.el, schedules.el),
  );

  return {
    details(d) {
      fill(state, pill(d));
      fill(
        facts,
        h('dt', {}, 'server'), h('dd', {}, d.server),
        h('dt', {}, 'engine'), h('dd', {}, d.engine),
        h('dt', {}, 'where'), h('dd', {}, d.position ? `${d.position.x} ${d.position.y} ${d.position.z}` : d.statusDetail ?? 'not in the game'),
        h('dt', {}, 'health, food'), h('dd', {}, ...(d.health === null ? ['—'] : meters(d))),
        h('dt', {}, 'carries'), h('dd', { class: 'items' }, ...(d.items.length ? items(d) : ['nothing'])),
      );
      wholeGoal.textContent = d.goal ? d.goal.text : d.choosing ? 'Choosing next goal' : 'No goal.';
      goalBy.textContent = d.goal ? d.goal.by : '';
      fill(directionList, d.directions.length === 0 ? h('p', { class: 'muted' }, 'No open direction.') : h('ol', { class: 'directions' }, d.directions.map((x) => h('li', { value: String(x.n) }, h('span', { class: 'muted' }, `${x.day} `), x.text))));
      fill(news.content, lines([...d.news].reverse(), 'Nothing yet since mindlink started.'));
      thoughts.el.hidden = d.thoughts === null;
      if (d.thoughts) fill(thoughts.content, h('div', { class: 'scroll' }, lines([...d.thoughts].reverse(), 'No turn yet since mindlink started.', 'lines stream')));
      notes.el.hidden = d.notes === null;
      if (d.notes !== null) fill(notes.content, d.notes ? h('pre', { class: 'notes' }, d.notes) : h('p', { class: 'muted' }, 'Empty.'));
      usage.el.hidden = d.usage === null;
      if (d.usage) fill(usage.content, h('ul', { class: 'lines' }, d.usage.map((l) => h('li', {}, l))));
      schedules.el.hidden = d.schedules === null;
      if (d.schedules) {
        fill(
          schedules.content,
          d.schedules.length === 0
            ? h('p', { class: 'muted' }, 'None. /schedule every day at 8:00 collect 10 oak logs makes one.')
            : h('ul', { class: 'lines' }, d.schedules.map((s) => h('li', {}, `#${s.id} · ${s.when} · ${s.goal} · next ${s.next} · by ${s.by}`))),
        );
      }
    },
    problem(p) {
      fill(status, p.text);
      status.className = 'answer refused';
    },
    reply(r) {
      if (seen.has(r.id)) return;
      seen.add(r.id);
      if (r.replyTo && r.replyTo === waitingFor) {
        waitingFor = null;
        answerLine(directionField.answer, r);
        return;
      }
      replies.prepend(h('li', { 'data-id': r.id, 'data-reply-to': r.replyTo ?? '', 'data-avatar': r.avatar ?? '', 'data-text': r.text }, h('time', {}, clock(Date.now())), r.avatar ? `[${r.avatar}] ${r.text}` : r.text));
    },
  };
}
