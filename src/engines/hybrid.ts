/**
 * The `hybrid` engine (docs/engines.md): the scripted engine plays while the
 * goal is in its language and it is getting on, and the turn goes to a model
 * (an {@link Engine} picked by name, the llm engine by default) when it is
 * stuck: blocked twice on the same goal, a goal outside its language, a
 * question the snapshot cannot answer, and the wrap-up lesson of a goal the
 * model worked on. Most turns cost nothing. It is made of the two engines,
 * calling one of them each turn; what it remembers per goal to decide is
 * `hybrid-memory.ts`'s.
 *
 * A model that refuses (out of credit, a bad key) does not stop the avatar:
 * the scripted engine plays that turn and the ones after it, one line says so,
 * and the model is not asked again for an hour (twice as long after each
 * refusal in a row, at most 8 hours), or until the engine is built again (a
 * restart, `/engine`).
 */
import { ProviderRefusedError } from '../errors.ts';
import { PROTOCOL_HELP } from './protocol-help.ts';
import { handoverText, HybridMemory } from './hybrid-memory.ts';
import type { Engine, EngineContext, PlayedBy, SessionInfo, TurnReply, TurnRequest } from './engine.ts';

/** How long model turns pause after a first refusal. */
export const MODEL_PAUSE_MS = 60 * 60_000;
/** The longest pause after refusals in a row. */
const MODEL_PAUSE_MAX_MS = 8 * 60 * 60_000;

/** The two engines a hybrid engine is made of. */
export interface HybridParts {
  scripted: Engine;
  /** The model side: the llm engine, or any engine that asks a model (an agent engine). */
  model: Engine;
  /** The first pause after a refusal ({@link MODEL_PAUSE_MS} by default). */
  pauseMs?: number;
  now?: () => number;
}

const SCRIPTED: PlayedBy = { engine: 'scripted', model: false };

/** "1 hour", "2 hours", "30 minutes". */
function duration(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 60) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  const hours = Math.round(minutes / 60);
  return `${hours} hour${hours === 1 ? '' : 's'}`;
}

/** The request with the handover said in its prompt, before the protocol reminder that ends it. */
function handedOver(req: TurnRequest, memory: HybridMemory, why: string): TurnRequest {
  const handover = memory.handover(req, why);
  const text = handoverText(handover, req.kind !== 'wrapup');
  const at = req.prompt.lastIndexOf(PROTOCOL_HELP);
  const prompt = at >= 0 ? `${req.prompt.slice(0, at)}${text}\n\n${req.prompt.slice(at)}` : `${req.prompt}\n\n${text}`;
  return { ...req, handover, prompt };
}

/**
 * Create the hybrid engine of one avatar over its scripted and model engines (built for the same avatar).
 *
 * @example
 * const engine = createHybridEngine(ctx, { scripted: createScriptedEngine(ctx), model: createLlmEngine(ctx, options) });
 * const reply = await engine.turn(request, signal); // reply.playedBy → { engine: 'scripted', model: false }
 */
export function createHybridEngine(ctx: EngineContext, parts: HybridParts): Engine {
  const { scripted, model } = parts;
  const now = parts.now ?? Date.now;
  const memory = new HybridMemory(ctx.places);
  const byModel: PlayedBy = { engine: model.name, model: true };
  /** Model turns are paused until then after a refusal; refusals in a row double the pause. */
  let pausedUntil = 0;
  let refusals = 0;

  const modelReady = (): boolean => now() >= pausedUntil;

  /** A scripted turn, remembered. */
  const playScripted = async (req: TurnRequest, signal: AbortSignal): Promise<TurnReply> => {
    const reply = await scripted.turn(req, signal);
    memory.scriptedPlayed(req, reply);
    return { ...reply, playedBy: SCRIPTED };
  };

  /**
   * A model turn. A refusal pauses the model and the turn is the scripted engine's (or `fallback`, the scripted
   * answer a question already has), with one line saying so.
   */
  const playModel = async (req: TurnRequest, why: string | null, signal: AbortSignal, fallback?: TurnReply): Promise<TurnReply> => {
    try {
      const reply = await model.turn(why === null ? req : handedOver(req, memory, why), signal);
      refusals = 0;
      memory.modelPlayed(req);
      return { ...reply, playedBy: byModel };
    } catch (err) {
      if (!(err instanceof ProviderRefusedError)) throw err;
      const pause = Math.min((parts.pauseMs ?? MODEL_PAUSE_MS) * 2 ** refusals, MODEL_PAUSE_MAX_MS);
      refusals++;
      pausedUntil = now() + pause;
      ctx.log.warn({ reason: err.reason, pauseMs: pause }, 'the model provider refused; the scripted engine plays on');
      const reply = fallback ?? (await playScripted(req, signal));
      const notice = `The model provider refused (${err.reason}), so the scripted engine plays on; I'll ask the model again in ${duration(pause)}.`;
      return { ...reply, playedBy: SCRIPTED, notice };
    }
  };

  return {
    name: 'hybrid',
    async turn(req: TurnRequest, signal: AbortSignal): Promise<TurnReply> {
      if (req.kind === 'question') {
        const answer = await playScripted(req, signal);
        // The snapshot had no answer: the model has the rest of what the avatar knows.
        if (answer.report.status !== 'blocked' || !modelReady()) return { ...answer, report: { ...answer.report, status: 'working' } };
        return playModel(req, null, signal, { ...answer, report: { ...answer.report, status: 'working' } });
      }
      const choice = memory.choose(req);
      if (choice.side === 'model' && modelReady()) return playModel(req, choice.why, signal);
      return playScripted(req, signal);
    },
    session(): SessionInfo {
      // The model's conversation is the one that grows; the scripted engine's is a count of characters.
      return model.session();
    },
    resetSession(): void {
      scripted.resetSession();
      model.resetSession();
    },
    close(): void {
      scripted.close?.();
      model.close?.();
    },
  };
}
