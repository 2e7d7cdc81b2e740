/**
 * Who speaks and where (a chat identity, a chat destination): the shapes every
 * kind of record that names a person or a chat uses (re-exported by `schema.ts`).
 */
import { z } from 'zod';

/** A chat identity: `telegram:<userId>`, `discord:<userId>` or `console:local`. */
export const IdentitySchema = z.string().regex(/^(telegram|discord|console):[A-Za-z0-9_-]+$/);
export type Identity = z.infer<typeof IdentitySchema>;

/**
 * A chat destination: `console`, `telegram:<chatId>`, `discord:<channelId>`, `web:<page id>` (a signed-in
 * dashboard page). (Telegram chat ids of groups are negative: `telegram:-100123`.)
 */
export const DestinationSchema = z.string().regex(/^(console|telegram:-?\d+(:\d+)?|discord:\d+|web:[A-Za-z0-9_-]{1,64})$/);
export type Destination = z.infer<typeof DestinationSchema>;
