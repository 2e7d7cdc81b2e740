/**
 * The shapes of the chat-side records of `state.json` (chat relays, `/say`
 * commands allowed, MCP tokens, handled messages), re-exported by `schema.ts`
 * beside the file's other records.
 */
import { z } from 'zod';
import { DestinationSchema, IdentitySchema } from './chat-ids.ts';

/** A chat relay (`/relay on`): the public chat an avatar hears in the game, posted into a chat linked to it. */
export const RelaySchema = z.object({
  avatar: z.string(),
  /** The linked chat the lines go to; the relay ends when that link does. */
  dest: DestinationSchema,
  /** Person id of whoever turned it on. */
  by: z.string(),
  createdAt: z.string(),
});
export type Relay = z.infer<typeof RelaySchema>;

/** An avatar whose owner lets `/say` send lines starting with `/` (server commands) through it (`/say commands on`). */
export const SayCommandsSchema = z.object({
  avatar: z.string(),
  /** Person id of whoever allowed it. */
  by: z.string(),
  createdAt: z.string(),
});
export type SayCommands = z.infer<typeof SayCommandsSchema>;

/**
 * A token of the people's MCP server (docs/mcp.md): it acts as `identity` speaking from its direct-message
 * chat `dest` with mindlink. Only the SHA-256 of the token is kept; the token itself was shown once.
 */
export const McpTokenSchema = z.object({
  /** SHA-256 of the token, base64url. */
  hash: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
  /** Person id of whoever asked for it. */
  person: z.string(),
  /** The chat identity it acts as. */
  identity: IdentitySchema,
  /** That identity's direct-message chat with mindlink (`console` for the console): its rights are those there. */
  dest: DestinationSchema,
  /** The name its person gave it (`laptop`), unique among theirs: `/mcp revoke laptop`. */
  label: z.string().regex(/^[A-Za-z0-9_-]{1,32}$/),
  createdAt: z.string(),
  /** When it was last used (to the nearest few minutes), ISO; absent until it is. */
  lastUsedAt: z.string().optional(),
});
export type McpToken = z.infer<typeof McpTokenSchema>;

/**
 * A message a platform may deliver again (Telegram sends an update until the bot confirms it) that changed
 * something: the key of its update and the reply it got, written with the change itself and kept until the
 * reply is on disk too, so the update delivered again after a restart in between is answered without being
 * applied twice (`src/handled-updates.ts`).
 */
export const HandledSchema = z.object({
  /** The platform's key of the update (`ChatContext.updateKey`). */
  key: z.string().min(1).max(200),
  avatar: z.string().nullable(),
  text: z.string(),
});
export type Handled = z.infer<typeof HandledSchema>;
