/**
 * `npm run agents:login -- <opencode|claude-code|pi>`: signs an agent CLI in
 * to its model provider, interactively, in the very folders mindlink runs it
 * in, so the sign-in is kept under `DATA_DIR/agents/<engine>/` and nothing
 * lands in your own home folder (docs/agents.md). An entry point, like
 * `src/main.ts`: it reads the config (`.env` too) and hands the terminal to the CLI.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from './config.ts';
import { AGENT_KINDS, isAgentKind } from './engines/agents/agent-cli.ts';
import { agentHomeOf } from './engines/agents/agent-engine.ts';
import { AGENT_CLIS, agentMissing, agentSetup } from './engines/agents/agents.ts';

const kind = process.argv[2] ?? '';
if (!isAgentKind(kind)) {
  process.stderr.write(`usage: npm run agents:login -- <${AGENT_KINDS.join('|')}>\n`);
  process.exit(2);
}
const config = loadConfig();
const setup = agentSetup(config);
const cli = AGENT_CLIS[kind];
const where = cli.locate(setup);
if (!where) {
  process.stderr.write(`${agentMissing(kind, setup)}\n`);
  process.exit(1);
}
const home = agentHomeOf(config.DATA_DIR, kind);
const tmp = join(home, 'tmp', 'sign-in');
mkdirSync(tmp, { recursive: true });
const { command, hint } = cli.signIn(setup, { home, tmp }, where);
process.stdout.write(`${hint}\nThe sign-in is kept in ${home}.\n`);
const r = spawnSync(command.command, command.args, { cwd: command.cwd, env: command.env, stdio: 'inherit' });
rmSync(tmp, { recursive: true, force: true });
process.exit(r.status ?? 1);
