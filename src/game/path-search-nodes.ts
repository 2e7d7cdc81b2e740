/**
 * mineflayer-pathfinder's path search keeps its own nodes.
 *
 * The pathfinder thinks a few milliseconds per physics tick (`path-budget.ts`); a path not found in that time
 * is handed over as `partial` (the way to the best node so far) and the search goes on at the next tick. It
 * moves each path's nodes to the middle of their blocks in place (`postProcessPath`), and those nodes are the
 * search's own: the best node, still waiting to be searched, was moved half a block and then judged from
 * there. A goal one block off diagonally (`GoalNear(4, 64, 4, 1)` with the best node at 3 3, moved to 3.5
 * 3.5) was taken as reached, the path ended at 3 3, and the bot stood there until its walk timed out. That
 * happened whenever a path took more than one tick to find: on a loaded machine, or with many avatars
 * sharing the budget. The search now hands out copies of its nodes.
 */
import { createRequire } from 'node:module';

/** A node of a path as the search builds it (a `Move`, a Vec3 with what to break and place on the way). */
interface SearchNode {
  toBreak: unknown[];
  toPlace: unknown[];
}

interface SearchResult {
  path: SearchNode[];
}

interface AStarClass {
  prototype: { makeResult(this: unknown, status: string, node: unknown): SearchResult };
}

let installed = false;

/** A copy of a node: same class, its own lists (the pathfinder empties them as it digs and places). */
function copyNode(node: SearchNode): SearchNode {
  return Object.assign(Object.create(Object.getPrototypeOf(node) as object) as SearchNode, node, { toBreak: [...node.toBreak], toPlace: [...node.toPlace] });
}

/**
 * Make the path search hand out copies of its nodes (once per process, before the first bot finds a path).
 *
 * @example
 * keepSearchNodes();
 * bot.loadPlugin(pathfinder);
 */
export function keepSearchNodes(): void {
  if (installed) return;
  installed = true;
  // The module the pathfinder plugin itself requires (the same file, so the same class).
  const AStar = createRequire(import.meta.url)('mineflayer-pathfinder/lib/astar.js') as AStarClass;
  const makeResult = AStar.prototype.makeResult;
  AStar.prototype.makeResult = function copiedResult(status, node) {
    const result = makeResult.call(this, status, node);
    return { ...result, path: result.path.map(copyNode) };
  };
}
