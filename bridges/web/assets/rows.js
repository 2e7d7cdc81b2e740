// The dashboard: one row per avatar the viewer may see, updated in place as the live stream sends them.
import { fill, h, itemName, pill } from './dom.js';

/** The goal line: cut with … on one line; hover (or tap) shows the whole goal and who set it. */
export function goalLine(row) {
  if (!row.goal) return row.choosing ? h('div', { class: 'goal' }, h('span', { class: 'goal-line' }, 'Choosing next goal')) : null;
  const wrap = h('div', { class: 'goal' });
  const line = h('button', { class: 'goal-line', type: 'button', 'aria-expanded': 'false', 'data-goal': row.name }, `Goal: ${row.goal.line}`);
  const full = h('div', { class: 'goal-full', role: 'tooltip' }, row.goal.text, h('span', { class: 'by' }, row.goal.by));
  line.addEventListener('click', (e) => {
    e.preventDefault();
    e.stopPropagation();
    const open = !wrap.classList.contains('open');
    for (const other of document.querySelectorAll('.goal.open')) other.classList.remove('open');
    wrap.classList.toggle('open', open);
    line.setAttribute('aria-expanded', String(open));
  });
  wrap.append(line, full);
  return wrap;
}

/** Health and food, as the game counts them (of 20). */
export function meters(row) {
  if (row.health === null) return [];
  return [
    h('span', { class: 'meter health', title: 'health' }, h('i'), `${row.health}/20`),
    h('span', { class: 'meter food', title: 'food' }, h('i'), `${row.food}/20`),
  ];
}

/** The short inventory. */
export function items(row) {
  const chips = row.items.map((it) => h('span', { class: 'chip' }, `${itemName(it.item)} ×${it.count}`));
  if (row.moreItems > 0) chips.push(h('span', { class: 'chip muted' }, `+${row.moreItems} more`));
  return chips;
}

function rowElement(row) {
  const el = h('article', { class: 'row', 'data-avatar': row.name });
  paint(el, row);
  return el;
}

function paint(el, row) {
  const wasOpen = el.querySelector('.goal.open') !== null;
  fill(
    el,
    h('div', { class: 'title' }, h('a', { class: 'name', href: `/avatar/${encodeURIComponent(row.name)}`, 'data-nav': '' }, row.name), pill(row)),
    h('div', { class: 'facts' }, h('span', { class: 'group' }, h('span', {}, row.server), h('span', {}, row.engine)), row.health === null ? null : h('span', { class: 'group' }, ...meters(row))),
    goalLine(row),
    row.statusDetail ? h('div', { class: 'muted' }, row.statusDetail) : null,
    h('div', { class: 'items' }, ...items(row)),
  );
  if (wasOpen) el.querySelector('.goal')?.classList.add('open');
}

/** The dashboard view: `update(rows)` keeps one element per avatar and repaints only rows that changed. */
export function dashboardView(main) {
  const list = h('section', { class: 'rows', id: 'rows' });
  const count = h('span', { class: 'count' });
  fill(main, h('div', { class: 'heading' }, h('h1', {}, 'Your avatars'), count), list);
  const shown = new Map();
  return {
    rows(rows) {
      count.textContent = rows.length === 1 ? '1 avatar' : `${rows.length} avatars`;
      if (rows.length === 0) {
        fill(list, h('div', { class: 'card empty muted' }, 'No avatar to show here. An admin can give you one: /avatar create, /owner or /link.'));
        shown.clear();
        return;
      }
      const seen = new Set();
      const order = [];
      for (const row of rows) {
        seen.add(row.name);
        const json = JSON.stringify(row);
        let entry = shown.get(row.name);
        if (!entry) {
          entry = { el: rowElement(row), json };
          shown.set(row.name, entry);
        } else if (entry.json !== json) {
          paint(entry.el, row);
          entry.json = json;
        }
        order.push(entry.el);
      }
      for (const name of [...shown.keys()]) if (!seen.has(name)) shown.delete(name);
      if (order.some((el, i) => list.children[i] !== el) || list.children.length !== order.length) fill(list, order);
    },
  };
}
