/** The claude-code engine end to end with the real CLI (`agent-e2e.ts` says what is tested). */
import { agentEndToEnd } from './agent-e2e.ts';

agentEndToEnd('claude-code');
