/**
 * Sends the requests prismarine-auth makes to Microsoft, Xbox Live and the
 * Minecraft services to a local {@link FakeMicrosoft} instead (prismarine-auth
 * builds its URLs from constants and calls the global `fetch`). Loaded into
 * the mindlink process under test with `--import`, pointed at the fake by
 * `MINDLINK_TEST_MICROSOFT_URL`, or called by a test that runs the sign-in in
 * its own process; nothing else is touched.
 */
const HOSTS = new Set([
  'login.live.com',
  'user.auth.xboxlive.com',
  'device.auth.xboxlive.com',
  'title.auth.xboxlive.com',
  'xsts.auth.xboxlive.com',
  'api.minecraftservices.com',
]);

/** Point the global `fetch` of this process at `target` for those hosts; the function returned puts it back. */
export function redirectMicrosoft(target: string): () => void {
  const original = globalThis.fetch;
  globalThis.fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (!HOSTS.has(url.hostname)) return original(input, init);
    const headers = new Headers(init?.headers);
    headers.set('x-original-host', url.hostname);
    return original(new URL(`${url.pathname}${url.search}`, target), { ...init, headers });
  };
  return () => {
    globalThis.fetch = original;
  };
}

const target = process.env.MINDLINK_TEST_MICROSOFT_URL;
if (target) redirectMicrosoft(target);
