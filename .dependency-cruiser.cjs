/**
 * mindlink's import rules (docs/architecture.md): dependencies point inward.
 * bridges → src, commands → the command host, skills → src/game; `src/` never
 * imports the outer folders except its entry points, `src/main.ts` (which
 * wires everything) and `src/avatar-host.ts` (an avatar host: games and
 * skills); the loop calls the engines, never the other way round; and no
 * module reaches itself again through its imports; each kind of record in the store has one owner, the
 * only module that imports its writer, and the goal loop reaches the store only through its port.
 * `test/architecture.test.ts` runs these rules, so a forbidden
 * import fails `npm test`; `npx depcruise src bridges commands skills` shows
 * the same report.
 *
 * TypeScript 7 has no compiler API for dependency-cruiser, so it parses with swc;
 * `tsPreCompilationDeps` keeps type-only imports, which count like any other.
 */

/** The core's own parts, which the game and the engines must not reach into. */
const CORE_PARTS = '^src/(core|main|router|command-host|rights|chat)\\.ts$|^src/(avatars|people|outbox)/';

/**
 * What a command may import from `src/`: the command host (what it may do), the words its replies
 * are made of (`command-words.ts`: pure functions and constants), and the shared contracts.
 */
const COMMAND_SURFACE = '^src/(command-host|command-words|chat|errors|text|validation)\\.ts$';

/**
 * Each kind of record in the store and its one owner (docs/architecture.md "Who writes what"): the only
 * module that imports the record's writer, `src/store/writers/<kind>.ts`. Everyone else reads the store's
 * read-only views, or asks the owner.
 */
const RECORD_OWNERS = {
  avatars: 'src/avatars/avatar-records.ts',
  persons: 'src/people/people.ts',
  links: 'src/people/links.ts',
  servers: 'src/servers/registry.ts',
  shares: 'src/sharing.ts',
  streams: 'src/thought-stream.ts',
  'read-marks': 'src/read-marks.ts',
  handled: 'src/handled-updates.ts',
  'mcp-tokens': 'src/people/mcp-tokens.ts',
  'goal-history': 'src/avatars/goal-history.ts',
  usage: 'src/avatars/usage.ts',
  schedules: 'src/schedule/scheduler.ts',
  digests: 'src/schedule/digests.ts',
  outbox: 'src/outbox/outbox.ts',
  'game-chat': 'src/game-chat/game-chat.ts',
  places: 'src/avatars/places.ts',
};

/** A path as an anchored regular expression. */
const exactly = (path) => `^${path.replace(/[.]/g, '\\.')}$`;

/** One rule per kind of record: only its owner imports its writer. */
const ownerRules = Object.entries(RECORD_OWNERS).map(([kind, owner]) => ({
  name: `record-owner-${kind}`,
  comment: `Only ${owner} writes ${kind}: it alone imports src/store/writers/${kind}.ts (everyone else reads the store's views or asks it).`,
  severity: 'error',
  from: { path: '^(src|bridges|commands|skills)/', pathNot: exactly(owner) },
  to: { path: exactly(`src/store/writers/${kind}.ts`) },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...ownerRules,
    {
      name: 'store-files-inside-store',
      comment:
        "The store's writable files (src/store/files.ts) and the record writer (src/store/record-writer.ts) are reached from src/store/ only: an owner writes through its record's writer.",
      severity: 'error',
      from: { path: '^(src|bridges|commands|skills)/', pathNot: '^src/store/' },
      to: { path: '^src/store/(files|record-writer)\\.ts$' },
    },
    {
      name: 'loop-behind-its-port',
      comment:
        "The goal loop reaches the store only through its port (src/loop/goal-port.ts, handed in by the avatars' records): it imports the store's schemas and read-only types, never the Store or a writer.",
      severity: 'error',
      from: { path: '^src/loop/' },
      to: { path: '^src/store/(store|files|record-writer|json-file)\\.ts$|^src/store/writers/' },
    },
    {
      name: 'src-not-outward',
      comment: 'src/ never imports bridges/, commands/ or skills/; only the entry points src/main.ts and src/avatar-host.ts wire them in.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(main|avatar-host)\\.ts$' },
      to: { path: '^(bridges|commands|skills)/' },
    },
    {
      name: 'game-and-engines-not-core',
      comment: 'src/game and src/engines are used by the core, never the other way round: their providers sit beside their contracts.',
      severity: 'error',
      from: { path: '^src/(game|engines)/' },
      to: { path: CORE_PARTS },
    },
    {
      name: 'commands-not-bridges',
      comment: 'A command runs the same on every platform: it never imports a bridge (or a skill).',
      severity: 'error',
      from: { path: '^commands/' },
      to: { path: '^(bridges|skills)/' },
    },
    {
      name: 'commands-through-host',
      comment:
        'A command reads and acts only through the CommandHost, where rights are checked: from src/ it imports the host, command-words.ts and the shared contracts, never a part with state (the loop, the schedulers, the engines, the store).',
      severity: 'error',
      from: { path: '^commands/' },
      to: { path: '^src/', pathNot: COMMAND_SURFACE },
    },
    {
      name: 'below-the-loop',
      comment: 'The goal loop calls the engines, plays through the game and keeps TASK.md (src/task); none of those imports the loop.',
      severity: 'error',
      from: { path: '^src/(game|engines|task)/' },
      to: { path: '^src/loop/' },
    },
    {
      name: 'no-circular',
      comment: 'No module reaches itself again through its imports (type-only ones count too): a part is built on what it imports, not beside it.',
      severity: 'error',
      from: { path: '^(src|bridges|commands|skills)/' },
      to: { circular: true },
    },
    {
      name: 'bridges-only-src',
      comment: 'A bridge talks to the core through src/chat.ts; it never imports commands or skills.',
      severity: 'error',
      from: { path: '^bridges/' },
      to: { path: '^(commands|skills)/' },
    },
    {
      name: 'skills-only-game',
      comment: 'Skills see the game only: src/game (and their own files, node, libraries).',
      severity: 'error',
      from: { path: '^skills/' },
      to: { path: '^(src/(?!game/)|bridges/|commands/)' },
    },
    {
      name: 'embedded-child-plain-commonjs',
      comment:
        "The embedded world's child process runs its .cjs files with plain node: they require only each other, the game's plain protocol shims (src/game/*.cjs), JSON data, node and libraries (its IPC types reach them through JSDoc only).",
      severity: 'error',
      from: { path: '^src/game/embedded/[^/]+\\.cjs$' },
      to: { path: '^(src|bridges|commands|skills)/', pathNot: '^src/game/(embedded/)?[^/]+\\.cjs$|\\.json$' },
    },
    {
      name: 'protocol-shims-plain-commonjs',
      comment:
        "The game's protocol shims (src/game/*.cjs: lean-protocol, codec-cache) run before minecraft-protocol loads, in the hosts and in the embedded world's plain-node child: they require only each other, node and libraries.",
      severity: 'error',
      from: { path: '^src/game/[^/]+\\.cjs$' },
      to: { path: '^(src|bridges|commands|skills)/', pathNot: '^src/game/[^/]+\\.cjs$' },
    },
    {
      name: 'embedded-world-through-its-host',
      comment:
        "The embedded world's plugins run in its child process only: the rest of mindlink reaches the world through its host beside them (embedded-world.ts, world-supervisor.ts).",
      severity: 'error',
      from: { path: '^(src|bridges|commands|skills)/', pathNot: '^src/game/embedded/' },
      to: { path: '^src/game/embedded/[^/]+\\.cjs$' },
    },
    {
      name: 'script-worker-plain-commonjs',
      comment:
        "A skill script's worker (src/game/sandbox/worker.cjs) runs with plain node in a thread of its own, holding nothing but the script: it requires node and SES only, none of mindlink's modules (its message types reach it through JSDoc only).",
      severity: 'error',
      from: { path: '^src/game/sandbox/[^/]+\\.cjs$' },
      to: { path: '^(src|bridges|commands|skills)/' },
    },
    {
      name: 'pi-extension-alone',
      comment:
        "The pi extension (src/engines/agents/pi-extension.ts) is loaded by pi, in pi's own process: it imports the MCP SDK only, none of mindlink's modules.",
      severity: 'error',
      from: { path: '^src/engines/agents/pi-extension\\.ts$' },
      to: { path: '^(src|bridges|commands|skills)/' },
    },
    {
      name: 'not-to-tests',
      comment: 'Product code never imports test code.',
      severity: 'error',
      from: { path: '^(src|bridges|commands|skills)/' },
      to: { path: '^test/' },
    },
  ],
  options: {
    parser: 'swc',
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
  },
};
