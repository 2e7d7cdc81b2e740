/** The opencode engine with the real CLI against a fake model (`agent-engine.ts` says what is tested). */
import { agentEngineSuite } from './agent-engine.ts';

agentEngineSuite('opencode');
