/**
 * Telegram's HTML as a client shows it: the tags Telegram allows, its entities, and the mentions a
 * `tg://user?id=` link makes; or why Telegram would refuse the text (a bare `<`, `>` or `&`, a tag it
 * does not know, one left open).
 */
const HTML_TAGS = new Set(['b', 'strong', 'i', 'em', 'u', 'ins', 's', 'strike', 'del', 'a', 'code', 'pre', 'span', 'tg-spoiler', 'tg-emoji', 'blockquote']);
const NAMED_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"' };

/** Render Telegram HTML as a client would show it, or say why Telegram would refuse it. */
export function renderTelegramHtml(src: string): { plain: string; mentions: number[] } | { error: string } {
  let plain = '';
  const mentions: number[] = [];
  const open: string[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i] as string;
    if (c === '<') {
      const m = /^<(\/?)([a-z-]+)((?:\s+[a-z-]+="[^"<>]*")*)\s*>/i.exec(src.slice(i, i + 300));
      const tag = m?.[2]?.toLowerCase();
      if (!m || tag === undefined || !HTML_TAGS.has(tag)) {
        return { error: `Bad Request: can't parse entities: Unsupported start tag at byte offset ${i}` };
      }
      if (m[1] === '/') {
        if (open.pop() !== tag) return { error: `Bad Request: can't parse entities: Unmatched end tag at byte offset ${i}` };
      } else {
        open.push(tag);
        const userId = /href="tg:\/\/user\?id=(\d+)"/.exec(m[3] ?? '')?.[1];
        if (tag === 'a' && userId !== undefined) mentions.push(Number(userId));
      }
      i += m[0].length;
    } else if (c === '&') {
      const m = /^&(lt|gt|amp|quot|#\d+|#x[0-9a-f]+);/i.exec(src.slice(i, i + 12));
      if (!m || m[1] === undefined) return { error: `Bad Request: can't parse entities: Character '&' is reserved at byte offset ${i}` };
      const name = m[1].toLowerCase();
      plain += NAMED_ENTITIES[name] ?? String.fromCodePoint(name.startsWith('#x') ? parseInt(name.slice(2), 16) : Number(name.slice(1)));
      i += m[0].length;
    } else if (c === '>') {
      return { error: `Bad Request: can't parse entities: Character '>' is reserved at byte offset ${i}` };
    } else {
      plain += c;
      i += 1;
    }
  }
  if (open.length > 0) return { error: `Bad Request: can't parse entities: Can't find end tag corresponding to start tag "${open.at(-1) ?? ''}"` };
  return { plain, mentions };
}

