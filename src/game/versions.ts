/**
 * Which Minecraft versions mindlink's avatars can play (mineflayer's range),
 * and which version a server speaks, from what its status ping says.
 */
import { createRequire } from 'node:module';
import type minecraftData from 'minecraft-data';

const requireHere = createRequire(import.meta.url);

/**
 * mineflayer's own list of the versions it plays (what `mineflayer.latestSupportedVersion` and
 * `oldestSupportedVersion` are), read from its file alone: loading mineflayer here would load its whole
 * protocol stack into a core whose avatars all play on hosts.
 */
const mineflayerVersions = requireHere('mineflayer/lib/version.js') as { oldestSupportedVersion: string; latestSupportedVersion: string };

/** The versions mineflayer plays, oldest and newest (e.g. `1.8.8` and `26.1`). */
export const PLAYABLE = { oldest: mineflayerVersions.oldestSupportedVersion, newest: mineflayerVersions.latestSupportedVersion } as const;

interface DataVersion {
  minecraftVersion: string;
  version: number;
  releaseType?: string;
  '>'(other: string): boolean;
  '<'(other: string): boolean;
}

/**
 * minecraft-data, loaded by the first question about a version (a server added or probed, a join): at start-up the
 * core asks none, and loading it reads and indexes its version lists and schemas.
 */
function mcData(): typeof minecraftData {
  return requireHere('minecraft-data') as typeof minecraftData;
}

/** minecraft-data's tables by protocol number and by name (typed loosely upstream). */
function tables(): { postNettyVersionsByProtocolVersion: { pc: Record<string, { minecraftVersion: string; releaseType?: string }[] | undefined> } } {
  return mcData() as unknown as ReturnType<typeof tables>;
}

/** The version data of a Minecraft version name, when minecraft-data has the protocol of it. */
function dataOf(version: string): DataVersion | undefined {
  try {
    return (mcData()(version)?.version as DataVersion | undefined) ?? undefined;
  } catch {
    // minecraft-data throws on a name it has never heard of: not a version it has.
    return undefined;
  }
}

/** Whether mineflayer can play a version it has data for: inside its range, or its newest protocol. */
function inRange(data: DataVersion): boolean {
  const newest = dataOf(PLAYABLE.newest);
  if (data['<'](PLAYABLE.oldest)) return false;
  return !data['>'](PLAYABLE.newest) || data.version === newest?.version;
}

/**
 * The protocol number of a version name (`1.20.4` → 765), or undefined for a name minecraft-data does not
 * know. Two names of one protocol (1.20.3 and 1.20.4) are one version to a server.
 *
 * @example
 * protocolOf('1.21.4') // 769
 */
export function protocolOf(version: string): number | undefined {
  return dataOf(version)?.version;
}

/** What {@link playableVersion} found. */
export type VersionVerdict = { ok: true; version: string } | { ok: false; reason: string };

/**
 * Whether avatars can play `version` (a name such as `1.20.4`), and the name minecraft-data knows it by.
 *
 * @example
 * playableVersion('1.20.4') // { ok: true, version: '1.20.4' }
 * playableVersion('1.7.10') // { ok: false, reason: 'Minecraft 1.7.10 is older than avatars can play (1.8.8 to 26.1)' }
 */
export function playableVersion(version: string): VersionVerdict {
  const data = dataOf(version);
  if (!data) return { ok: false, reason: `mindlink knows no Minecraft version "${version}" (avatars play ${PLAYABLE.oldest} to ${PLAYABLE.newest})` };
  if (!inRange(data)) {
    const side = data['<'](PLAYABLE.oldest) ? 'older' : 'newer';
    return { ok: false, reason: `Minecraft ${data.minecraftVersion} is ${side} than avatars can play (${PLAYABLE.oldest} to ${PLAYABLE.newest})` };
  }
  return { ok: true, version: data.minecraftVersion };
}

/**
 * The version a server speaks, from its status ping: the protocol number first (one protocol can be
 * several releases, e.g. 765 is 1.20.3 and 1.20.4: the newest release is taken), then a version
 * number inside its version name (`Paper 1.21.4`).
 *
 * @example
 * detectVersion(765, '1.20.4')        // { ok: true, version: '1.20.4' }
 * detectVersion(769, 'Paper 1.21.4')  // { ok: true, version: '1.21.4' }
 * detectVersion(5, '1.7.10')          // { ok: false, reason: 'Minecraft 1.7.10 is older than avatars can play (…)' }
 */
export function detectVersion(protocol: number, name: string): VersionVerdict {
  const byProtocol = tables().postNettyVersionsByProtocolVersion.pc[String(protocol)] ?? [];
  const releases = byProtocol.filter((v) => v.releaseType === 'release' || /^\d+\.\d+(\.\d+)?$/.test(v.minecraftVersion));
  const fromName = name.match(/\b\d+\.\d+(?:\.\d+)?\b/g) ?? [];
  const candidates = [...releases.map((v) => v.minecraftVersion), ...fromName];
  let first: VersionVerdict | undefined;
  for (const candidate of candidates) {
    const verdict = playableVersion(candidate);
    if (verdict.ok) return verdict;
    first ??= verdict;
  }
  return first ?? { ok: false, reason: `the server speaks a protocol mindlink does not know (${protocol}${name ? `, "${name}"` : ''}; avatars play ${PLAYABLE.oldest} to ${PLAYABLE.newest})` };
}
