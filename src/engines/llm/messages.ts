/**
 * The chat completions message shapes the llm engine sends and keeps
 * (a subset of the OpenAI wire format that every compatible server takes),
 * as zod schemas so that a saved session is validated when it is read.
 */
import { z } from 'zod';

/** A tool call the model made, as kept in the conversation. */
export const ToolCallSchema = z.object({
  id: z.string(),
  type: z.literal('function'),
  function: z.object({ name: z.string(), arguments: z.string() }),
});

/** One message of the conversation (the system prompt is never stored: it is rebuilt per request). */
export const ChatMessageSchema = z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content: z.string() }),
  z.object({ role: z.literal('user'), content: z.string() }),
  z.object({ role: z.literal('assistant'), content: z.string().nullable(), tool_calls: z.array(ToolCallSchema).optional() }),
  z.object({ role: z.literal('tool'), tool_call_id: z.string(), content: z.string() }),
]);

/** One message of the conversation. */
export type ChatMessage = z.infer<typeof ChatMessageSchema>;

/** A tool as offered to the model (`tools` of the request). */
export interface ToolSchema {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/**
 * Characters of a list of messages: the text the model reads (contents, tool
 * call names and arguments), the measure of the context budget.
 *
 * @example
 * if (messageChars(messages) > budget) compact();
 */
export function messageChars(messages: readonly ChatMessage[]): number {
  let n = 0;
  for (const m of messages) {
    n += m.content?.length ?? 0;
    if (m.role === 'assistant') for (const c of m.tool_calls ?? []) n += c.function.name.length + c.function.arguments.length;
  }
  return n;
}
