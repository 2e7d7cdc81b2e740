/**
 * A fake of the Microsoft, Xbox Live and Minecraft services that a Java
 * Edition sign-in with prismarine-auth's device-code flow (`live` flow, the
 * Nintendo Switch title) talks to, for tests. The real prismarine-auth reaches
 * it through `microsoft-redirect.ts`, which sends its requests for those hosts
 * here (prismarine-auth has no option for its endpoints).
 *
 * What it covers: the device code request and the token polling
 * (`authorization_pending` until {@link FakeMicrosoft.approve} is called, then
 * tokens; `expired_token` once the code's time is up), the refresh-token
 * grant, Xbox user / device / title / XSTS tokens, the Minecraft login with
 * Xbox, the profile (404 for an account without Minecraft, 401 for a token it
 * did not give or took back) and the player
 * certificates. It checks no signatures. Every token it hands out is kept in
 * {@link FakeMicrosoft.tokens}, so a test can look for them where they must not be.
 *
 * @example
 * const ms = await FakeMicrosoft.start({ expiresInS: 3 });
 * // start mindlink with MINDLINK_TEST_MICROSOFT_URL=ms.url and --import test/fakes/microsoft-redirect.ts
 * ms.approve(code, { id: '…', name: 'BobMC' });
 * await ms.close();
 */
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A Minecraft profile, or null for an account that does not own Minecraft. */
export type FakeProfile = { id: string; name: string } | null;

interface DeviceCode {
  deviceCode: string;
  userCode: string;
  expiresAt: number;
  profile: FakeProfile | undefined;
}

/** Options of {@link FakeMicrosoft.start}. */
export interface FakeMicrosoftOptions {
  /** How long a device code is valid (s). */
  expiresInS?: number;
  /** How often prismarine-auth polls (s). */
  intervalS?: number;
  /** The port to listen on (a free one when absent): Microsoft coming back where it could not be reached. */
  port?: number;
}

export class FakeMicrosoft {
  /** Every token handed out (Microsoft, Xbox, Minecraft). */
  readonly tokens: string[] = [];
  /** The device codes asked for, oldest first (the user codes). */
  readonly codes: string[] = [];
  /** Requests by path, for tests that count them. */
  readonly hits: string[] = [];
  private readonly events = new EventEmitter();
  private readonly devices = new Map<string, DeviceCode>();
  /** Microsoft access token → the profile of the account it belongs to (carried down the chain of tokens). */
  private readonly profileOf = new Map<string, FakeProfile>();
  private readonly keys = generateKeyPairSync('rsa', { modulusLength: 1024, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });

  private constructor(
    private readonly server: Server,
    private readonly opts: Required<Omit<FakeMicrosoftOptions, 'port'>>,
  ) {}

  static async start(opts: FakeMicrosoftOptions = {}): Promise<FakeMicrosoft> {
    const server = createServer();
    const fake = new FakeMicrosoft(server, { expiresInS: opts.expiresInS ?? 900, intervalS: opts.intervalS ?? 1 });
    server.on('request', (req, res) => fake.onRequest(req, res));
    await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
    return fake;
  }

  /** The base URL requests are redirected to. */
  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The owner signed in with `userCode`, choosing an account with this Minecraft profile (null: no Minecraft). */
  approve(userCode: string, profile: FakeProfile): void {
    const device = [...this.devices.values()].find((d) => d.userCode === userCode);
    if (!device) throw new Error(`no device code ${userCode}`);
    device.profile = profile;
  }

  /** Take back every token handed out so far (a password changed, a session revoked): none is accepted any more. */
  revokeAll(): void {
    this.profileOf.clear();
  }

  /** Resolves with the user code of the next device code asked for (or one asked for already, counting from `since`). */
  nextCode(since: number): Promise<string> {
    const have = this.codes[since];
    if (have) return Promise.resolve(have);
    return new Promise((resolve) => {
      const on = (): void => {
        const code = this.codes[since];
        if (!code) return;
        this.events.off('code', on);
        resolve(code);
      };
      this.events.on('code', on);
    });
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private token(prefix: string): string {
    const t = `${prefix}${randomBytes(18).toString('base64url')}`;
    this.tokens.push(t);
    return t;
  }

  private onRequest(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const host = String(req.headers['x-original-host'] ?? '');
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      const raw = Buffer.concat(chunks).toString('utf8');
      this.hits.push(`${host}${path}`);
      const form = new URLSearchParams(raw);
      const json = (): Record<string, unknown> => (raw.startsWith('{') ? (JSON.parse(raw) as Record<string, unknown>) : {});
      const auth = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
      const send = (status: number, body: unknown): void => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      this.route(host, path, form, json, auth, send);
    });
  }

  private route(host: string, path: string, form: URLSearchParams, json: () => Record<string, unknown>, bearer: string, send: (status: number, body: unknown) => void): void {
    const later = (s: number): string => new Date(Date.now() + s * 1000).toISOString();
    if (host === 'login.live.com' && path === '/oauth20_connect.srf') {
      const device: DeviceCode = { deviceCode: randomUUID(), userCode: randomBytes(4).toString('hex').toUpperCase(), expiresAt: Date.now() + this.opts.expiresInS * 1000, profile: undefined };
      this.devices.set(device.deviceCode, device);
      this.codes.push(device.userCode);
      this.events.emit('code');
      send(200, { device_code: device.deviceCode, user_code: device.userCode, verification_uri: 'https://www.microsoft.com/link', expires_in: this.opts.expiresInS, interval: this.opts.intervalS });
      return;
    }
    if (host === 'login.live.com' && path === '/oauth20_token.srf') {
      if (form.get('grant_type') === 'refresh_token') {
        const profile = this.profileOf.get(String(form.get('refresh_token')));
        if (profile === undefined) return send(400, { error: 'invalid_grant' });
        return send(200, this.msaTokens(profile));
      }
      const device = this.devices.get(String(form.get('device_code')));
      if (!device) return send(400, { error: 'invalid_grant' });
      if (Date.now() > device.expiresAt) return send(400, { error: 'expired_token', error_description: 'The code expired.' });
      if (device.profile === undefined) return send(400, { error: 'authorization_pending', error_description: 'Waiting for the user.' });
      this.devices.delete(device.deviceCode);
      return send(200, this.msaTokens(device.profile));
    }
    const body = json();
    const props = (body.Properties ?? {}) as Record<string, unknown>;
    if (host === 'user.auth.xboxlive.com') {
      const msa = String(props.RpsTicket ?? '').replace(/^[td]=/, '');
      return send(200, this.xbox(msa, 'xbl-user-', later(86_400)));
    }
    if (host === 'device.auth.xboxlive.com') return send(200, { Token: this.token('xbl-device-'), NotAfter: later(86_400) });
    if (host === 'title.auth.xboxlive.com') return send(200, { Token: this.token('xbl-title-'), NotAfter: later(86_400), DisplayClaims: { xti: { tid: '1' } } });
    if (host === 'xsts.auth.xboxlive.com') {
      const user = String((props.UserTokens as string[] | undefined)?.[0] ?? '');
      return send(200, this.xbox(user, 'xsts-', later(86_400)));
    }
    if (host === 'api.minecraftservices.com' && path === '/authentication/login_with_xbox') {
      const xsts = String(body.identityToken ?? '').split(';')[1] ?? '';
      const mc = this.token('mc-');
      this.profileOf.set(mc, this.profileOf.get(xsts) ?? null);
      return send(200, { username: randomUUID(), access_token: mc, token_type: 'Bearer', expires_in: 86_400 });
    }
    if (host === 'api.minecraftservices.com' && path === '/minecraft/profile') {
      // A token it never gave (or took back) is refused, as Microsoft refuses it; an account without Minecraft has no profile.
      if (!this.profileOf.has(bearer)) return send(401, { path: '/minecraft/profile', errorType: 'UnauthorizedOperationException', error: 'UnauthorizedOperationException', errorMessage: 'Unauthorized' });
      const profile = this.profileOf.get(bearer);
      if (!profile) return send(404, { path: '/minecraft/profile', error: 'NOT_FOUND', errorMessage: 'The server has not found anything matching the request URI' });
      return send(200, { id: profile.id.replace(/-/g, ''), name: profile.name, skins: [], capes: [] });
    }
    if (host === 'api.minecraftservices.com' && path === '/player/certificates') {
      return send(200, {
        keyPair: { privateKey: this.keys.privateKey, publicKey: this.keys.publicKey },
        publicKeySignature: randomBytes(64).toString('base64'),
        publicKeySignatureV2: randomBytes(64).toString('base64'),
        expiresAt: later(86_400),
        refreshedAfter: later(43_200),
      });
    }
    send(404, { error: `the fake has no ${host}${path}` });
  }

  /** Microsoft tokens for an account. */
  private msaTokens(profile: FakeProfile): Record<string, unknown> {
    const access = this.token('msa-at-');
    const refresh = this.token('msa-rt-');
    this.profileOf.set(access, profile);
    this.profileOf.set(refresh, profile);
    return { token_type: 'bearer', expires_in: 86_400, scope: 'service::user.auth.xboxlive.com::MBI_SSL', access_token: access, refresh_token: refresh, user_id: randomUUID() };
  }

  /** An Xbox token for the account behind `from`. */
  private xbox(from: string, prefix: string, notAfter: string): Record<string, unknown> {
    const t = this.token(prefix);
    this.profileOf.set(t, this.profileOf.get(from) ?? null);
    return { IssueInstant: new Date().toISOString(), NotAfter: notAfter, Token: t, DisplayClaims: { xui: [{ uhs: '9999', xid: '2535400000000000' }] } };
  }
}
