/**
 * flying-squid ships no types. Its server is typed where it is used: `types.cjs` lists the members the
 * embedded world's plugins and `server.cjs` read or call, and `server.cjs` casts the server to that shape.
 */
declare module 'flying-squid' {
  export function createMCServer(options: Record<string, unknown>): unknown;
}
