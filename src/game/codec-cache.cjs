// @ts-check
'use strict';
/*
 * minecraft-protocol's packet codecs, from a cache on disk.
 *
 * For each version, state and direction it is asked for, minecraft-protocol writes the JavaScript of the
 * codec (protodef's compiler walks the version's protocol tables: some 2.8 million characters for the
 * states a join goes through) and evaluates it, once per process: a third of a second of a process's start.
 * The written code depends only on the versions of the libraries that make it and on the Minecraft version, so
 * it is kept in `node_modules/.cache/mindlink-codecs/` (the build writes the embedded world's; any other is
 * written the first time one is compiled) and a later process only evaluates it, with protodef's own
 * `compile`, as minecraft-protocol would. A packet set of a server's own (`customPackets`) is compiled as
 * before. A cache file that is missing, unreadable, of other library versions or not whole is written again.
 */
const fs = require('node:fs');
const path = require('node:path');

/** Bumped when what a cache file holds changes shape. */
const FORMAT = 1;

/**
 * @typedef {{ generate(): string, compile(code: string): Record<string, unknown> }} PartCompiler
 * @typedef {{ sizeOfCompiler: PartCompiler, writeCompiler: PartCompiler, readCompiler: PartCompiler,
 *   addTypes(types: unknown): void, addProtocol(protocol: unknown, path: string[]): void }} Compiler
 * @typedef {{ createSerializer(opts?: CodecOptions): unknown, createDeserializer(opts?: CodecOptions): unknown }} SerializerModule
 * @typedef {{ state?: string, isServer?: boolean, version: string, customPackets?: Record<string, unknown>,
 *   compiled?: boolean, noErrorLogging?: boolean }} CodecOptions
 * @typedef {[sizeOf: string, write: string, read: string]} Codes the code protodef's three compilers write
 * @typedef {{ version: { majorVersion: string, minecraftVersion: string, version: number }, protocol: unknown }} McData
 */

/** @param {string} dir a package's folder @returns {string} its version */
function versionOf(dir) {
  return String(JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).version);
}

/** @param {string} from a file in a package @param {string} name @returns {string} the folder of the package `name` as `from` finds it */
function packageDir(from, name) {
  return path.dirname(require.resolve(`${name}/package.json`, { paths: [path.dirname(from)] }));
}

/**
 * Put the cache in front of the codecs of the minecraft-protocol in `mpDir`: its serializer module's
 * `createSerializer` and `createDeserializer` are replaced before the rest of minecraft-protocol (which reads
 * them as it loads) is loaded.
 * @param {string} mpDir minecraft-protocol's folder
 * @param {string} cacheDir where the cache files are
 */
function cacheCodecs(mpDir, cacheDir) {
  const serializerFile = require.resolve(path.join(mpDir, 'src', 'transforms', 'serializer.js'));
  const serializer = /** @type {SerializerModule} */ (require(serializerFile));
  const protodefDir = packageDir(serializerFile, 'protodef');
  const nbtDir = packageDir(serializerFile, 'prismarine-nbt');
  const dataDir = packageDir(serializerFile, 'minecraft-data');
  const protodef = require(protodefDir);
  const { ProtoDefCompiler, CompiledProtodef } = protodef.Compiler;
  const { Serializer, FullPacketParser } = protodef;
  const nbt = require(nbtDir);
  const minecraftData = require(dataDir);
  const compilerTypes = require(path.join(mpDir, 'src', 'datatypes', 'compiler-minecraft.js'));
  const states = require(path.join(mpDir, 'src', 'states.js'));
  const libraries = `mp ${versionOf(mpDir)} protodef ${versionOf(protodefDir)} nbt ${versionOf(nbtDir)} data ${versionOf(dataDir)}`;
  const original = { createSerializer: serializer.createSerializer, createDeserializer: serializer.createDeserializer };
  /** @type {Map<string, unknown>} */
  const compiled = new Map();

  /** @returns {Compiler} a compiler with the natives the codecs call (minecraft-protocol's and NBT's) */
  function compilerWithNatives() {
    const compiler = /** @type {Compiler} */ (new ProtoDefCompiler());
    compiler.addTypes(compilerTypes);
    return compiler;
  }

  /**
   * The codec of one state and direction, or undefined when minecraft-protocol compiles it itself.
   * @param {string} state @param {string} direction @param {string} version @param {Record<string, unknown> | undefined} customPackets
   */
  function protocol(state, direction, version, customPackets) {
    const mcData = /** @type {McData | null} */ (minecraftData(version));
    if (!mcData) return undefined;
    const own = customPackets?.[mcData.version.majorVersion];
    if (own && Object.keys(own).length > 0) return undefined;
    // minecraft-protocol's own check: the protocol number its version list gives must be the data's.
    const listed = minecraftData.versionsByMinecraftVersion.pc[version];
    if (listed && listed.version !== mcData.version.version) return undefined;
    const key = `${state};${direction};${mcData.version.minecraftVersion}`;
    const known = compiled.get(key);
    if (known) return known;
    const label = `${FORMAT} ${libraries} mc ${mcData.version.minecraftVersion} ${state} ${direction}`;
    const file = path.join(cacheDir, `${mcData.version.minecraftVersion}-${state}-${direction}.json`);
    let codes = readCodes(file, label);
    const compiler = compilerWithNatives();
    if (!codes) {
      compiler.addProtocol(mcData.protocol, [state, direction]);
      nbt.addTypesToCompiler('big', compiler);
      codes = /** @type {Codes} */ ([compiler.sizeOfCompiler.generate(), compiler.writeCompiler.generate(), compiler.readCompiler.generate()]);
      writeCodes(file, label, codes);
    } else {
      nbt.addTypesToCompiler('big', compiler);
    }
    const proto = new CompiledProtodef(compiler.sizeOfCompiler.compile(codes[0]), compiler.writeCompiler.compile(codes[1]), compiler.readCompiler.compile(codes[2]));
    compiled.set(key, proto);
    return proto;
  }

  serializer.createSerializer = (opts) => {
    const { state = states.HANDSHAKING, isServer = false, version, customPackets, compiled: wanted = true } = opts ?? /** @type {CodecOptions} */ ({});
    const proto = wanted ? protocol(state, isServer ? 'toClient' : 'toServer', version, customPackets) : undefined;
    return proto ? new Serializer(proto, 'packet') : original.createSerializer(opts);
  };
  serializer.createDeserializer = (opts) => {
    const { state = states.HANDSHAKING, isServer = false, version, customPackets, compiled: wanted = true, noErrorLogging = false } = opts ?? /** @type {CodecOptions} */ ({});
    const proto = wanted ? protocol(state, isServer ? 'toServer' : 'toClient', version, customPackets) : undefined;
    return proto ? new FullPacketParser(proto, 'packet', noErrorLogging) : original.createDeserializer(opts);
  };
}

/**
 * The three codes in `file` when it was written for `label` and is whole, else undefined.
 * @param {string} file @param {string} label @returns {Codes | undefined}
 */
function readCodes(file, label) {
  try {
    const held = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (held.label !== label || !Array.isArray(held.codes) || held.codes.length !== 3) return undefined;
    if (!held.codes.every((/** @type {unknown} */ c) => typeof c === 'string' && c.startsWith('() => {'))) return undefined;
    return held.codes;
  } catch {
    return undefined;
  }
}

/**
 * Write the codes for later processes, whole or not at all (a file beside, then renamed); a cache that cannot be
 * written (a read-only install, a full disk) only means the next process compiles them again.
 * @param {string} file @param {string} label @param {Codes} codes
 */
function writeCodes(file, label, codes) {
  const aside = `${file}.${process.pid}.tmp`;
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(aside, JSON.stringify({ label, codes }));
    fs.renameSync(aside, file);
  } catch {
    fs.rmSync(aside, { force: true });
  }
}

module.exports = { cacheCodecs };
