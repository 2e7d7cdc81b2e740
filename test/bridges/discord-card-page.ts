/**
 * A page that draws a Discord message from the JSON mindlink sent (as the fake Discord recorded it): the
 * embed with its colour bar, title, description, fields and footer, and the buttons, in Discord's dark
 * theme. It is a rendering of the message body, not Discord itself: the page says so above the message.
 * docs/discord.md shows a screenshot of it (`test/bridges/discord-card-picture.test.ts` takes it).
 */

interface Embed {
  title?: string;
  description?: string;
  color?: number;
  fields?: { name: string; value: string; inline?: boolean }[];
  footer?: { text: string };
}

interface Button {
  label?: string;
  style?: number;
  custom_id?: string;
}

/** Discord's button colours by style: primary, secondary, success, danger. */
const BUTTON_COLOURS: Record<number, string> = { 1: '#5865f2', 2: '#4e5058', 3: '#248046', 4: '#da373c' };

function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Inline fields go three to a row, as Discord lays them out; a field that is not inline takes a row of its own. */
function fieldRows(fields: NonNullable<Embed['fields']>): string {
  return fields
    .map((f) => `<div class="field${f.inline ? ' inline' : ''}"><div class="name">${esc(f.name)}</div><div class="value">${esc(f.value)}</div></div>`)
    .join('');
}

/**
 * The page for one message body (`embeds`, `components`, `content`), posted by `botName` at `time`.
 *
 * @example
 * await page.setContent(cardPage(sent.body, { botName: 'mindlink', time: 'Today at 14:02', caption: 'A /status card' }));
 */
export function cardPage(body: { content?: string; embeds?: unknown[]; components?: unknown[] }, opts: { botName: string; time: string; caption: string }): string {
  const embed = (body.embeds?.[0] ?? null) as Embed | null;
  const rows = (body.components ?? []) as { components?: Button[] }[];
  const colour = `#${(embed?.color ?? 0x4e5058).toString(16).padStart(6, '0')}`;
  const embedHtml = embed
    ? `<div class="embed" style="border-left-color:${colour}">
        ${embed.title ? `<div class="title">${esc(embed.title)}</div>` : ''}
        ${embed.description ? `<div class="description">${esc(embed.description)}</div>` : ''}
        ${embed.fields?.length ? `<div class="fields">${fieldRows(embed.fields)}</div>` : ''}
        ${embed.footer ? `<div class="footer">${esc(embed.footer.text)}</div>` : ''}
      </div>`
    : '';
  const buttons = rows
    .map((r) => `<div class="row">${(r.components ?? []).map((b) => `<button style="background:${BUTTON_COLOURS[b.style ?? 2] ?? '#4e5058'}" data-id="${esc(b.custom_id ?? '')}">${esc(b.label ?? '')}</button>`).join('')}</div>`)
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(opts.caption)}</title>
<style>
  body { margin: 0; background: #313338; font: 16px/1.375 "gg sans", "Noto Sans", "Helvetica Neue", Helvetica, Arial, sans-serif; color: #dbdee1; }
  .caption { background: #1e1f22; color: #b5bac1; font-size: 13px; padding: 8px 16px; border-bottom: 1px solid #3f4147; }
  .caption b { color: #f2f3f5; }
  #message { display: flex; gap: 16px; padding: 16px 16px 18px 16px; width: 560px; }
  .avatar { width: 40px; height: 40px; border-radius: 50%; background: #5865f2; color: #fff; font-weight: 700; display: flex; align-items: center; justify-content: center; flex: none; }
  .head { display: flex; align-items: baseline; gap: 6px; }
  .name { color: #f2f3f5; font-weight: 600; }
  .tag { background: #5865f2; color: #fff; font-size: 10px; font-weight: 700; border-radius: 3px; padding: 0 4px; line-height: 15px; }
  .time { color: #949ba4; font-size: 12px; }
  .content { white-space: pre-wrap; }
  .embed { margin-top: 4px; background: #2b2d31; border-left: 4px solid; border-radius: 4px; padding: 8px 16px 16px 12px; max-width: 432px; }
  .title { color: #f2f3f5; font-weight: 600; margin-top: 8px; }
  .description { font-size: 14px; margin-top: 8px; white-space: pre-wrap; }
  .fields { display: grid; grid-template-columns: repeat(3, 1fr); gap: 8px; margin-top: 8px; }
  .field { grid-column: 1 / -1; font-size: 14px; }
  .field.inline { grid-column: auto; }
  .field .name { color: #f2f3f5; font-weight: 600; font-size: 14px; margin-bottom: 2px; }
  .field .value { white-space: pre-wrap; }
  .footer { color: #b5bac1; font-size: 12px; margin-top: 8px; }
  .row { display: flex; gap: 8px; margin-top: 8px; }
  button { border: 0; border-radius: 3px; color: #fff; font: 500 14px/16px inherit; padding: 8px 16px; min-height: 32px; font-family: inherit; }
</style></head>
<body>
  <div class="caption"><b>${esc(opts.caption)}</b> — drawn from the message JSON mindlink sent (recorded by the fake Discord in the tests); a rendering, not a screenshot of Discord.</div>
  <div id="message">
    <div class="avatar">m</div>
    <div>
      <div class="head"><span class="name">${esc(opts.botName)}</span><span class="tag">APP</span><span class="time">${esc(opts.time)}</span></div>
      ${body.content ? `<div class="content">${esc(body.content)}</div>` : ''}
      ${embedHtml}
      ${buttons}
    </div>
  </div>
</body></html>`;
}
