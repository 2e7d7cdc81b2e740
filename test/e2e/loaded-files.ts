/**
 * Writes down the files under node_modules the process it is loaded into (with `--import`) loads, CommonJS and ES
 * modules alike, one path a line, appended to the file `MINDLINK_TEST_LOADED` names as each loads. A file only
 * resolved (`require.resolve`) is not loaded and not written. Without that variable it does nothing.
 */
import { appendFileSync } from 'node:fs';
import Module, { register } from 'node:module';

type Loader = (this: unknown, module: unknown, filename: string) => unknown;

const out = process.env.MINDLINK_TEST_LOADED;
if (out) {
  const extensions = (Module as unknown as { _extensions: Record<string, Loader> })._extensions;
  for (const ext of ['.js', '.cjs', '.json']) {
    const load = extensions[ext];
    if (!load) continue;
    extensions[ext] = function (this: unknown, module: unknown, filename: string): unknown {
      if (filename.includes('/node_modules/')) appendFileSync(out, `${filename}\n`);
      return load.call(this, module, filename);
    };
  }
  // ES modules load in the module hooks' thread: the hook writes them down there.
  const hooks = `
    import { appendFileSync } from 'node:fs';
    let out;
    export function initialize(data) { out = data.out; }
    export async function load(url, context, next) {
      if (url.includes('/node_modules/')) appendFileSync(out, new URL(url).pathname + '\\n');
      return next(url, context);
    }`;
  register(`data:text/javascript,${encodeURIComponent(hooks)}`, { data: { out } });
}
