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
 * written the first time one is compiled) and a later process only evaluates it. A packet set of a server's own
 * (`customPackets`) is compiled as before. A cache file that is missing, unreadable, of other library versions
 * or not whole is written again.
 *
 * The code is evaluated as protodef's `compile` does, given the same two names (`native`, the compiler's own
 * functions, and `PartialReadError`), as a script whose V8 code cache is kept beside it in the file: evaluating
 * it then skips most of the parsing. Code that names anything else `compile` would have given it (protodef's
 * module scope, `this`) is evaluated by protodef's `compile` itself, without a code cache.
 */
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');

/** Bumped when what a cache file holds changes shape. */
const FORMAT = 2;
/** The V8 code caches are this Node's own (V8 refuses another's). */
const RUNTIME = `${process.version} ${process.arch}`;
/**
 * Names the code may not use to be run outside protodef's `compile`: its module scope, `compile`'s own
 * parameter, `this`, and `arguments` (but in the forwarding functions protodef writes, where it is their own).
 */
const OUTSIDE = /(?<![.\w$])(numeric|utils|conditionalDatatypes|structuresDatatypes|utilsDatatypes|tryCatch|ProtoDefCompiler|CompiledProtodef|Compiler|ReadCompiler|WriteCompiler|SizeOfCompiler|module|exports|require|__filename|__dirname|code|eval|this|arguments)(?![\w$])/;
const FORWARDING = /function \(\) \{ return ctx\.[\w$]+\(\.\.\.arguments\) \}/g;

/**
 * @typedef {{ generate(): string, compile(code: string): Record<string, unknown>, native: Record<string, unknown> }} PartCompiler
 * @typedef {{ sizeOfCompiler: PartCompiler, writeCompiler: PartCompiler, readCompiler: PartCompiler,
 *   addTypes(types: unknown): void, addProtocol(protocol: unknown, path: string[]): void }} Compiler
 * @typedef {{ createSerializer(opts?: CodecOptions): unknown, createDeserializer(opts?: CodecOptions): unknown }} SerializerModule
 * @typedef {{ state?: string, isServer?: boolean, version: string, customPackets?: Record<string, unknown>,
 *   compiled?: boolean, noErrorLogging?: boolean }} CodecOptions
 * @typedef {[sizeOf: string, write: string, read: string]} Codes the code protodef's three compilers write
 * @typedef {{ codes: Codes, caches: (Buffer | undefined)[] }} Held a cache file's codes and V8 code caches
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
  const { PartialReadError } = protodef.utils;
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
    const held = readHeld(file, label);
    const compiler = compilerWithNatives();
    if (!held) compiler.addProtocol(mcData.protocol, [state, direction]);
    nbt.addTypesToCompiler('big', compiler);
    const parts = [compiler.sizeOfCompiler, compiler.writeCompiler, compiler.readCompiler];
    const codes = held?.codes ?? /** @type {Codes} */ (parts.map((part) => part.generate()));
    const caches = held?.caches ?? [];
    /** @type {boolean} whether the file is to be written again (new code, or new code caches) */
    let changed = !held;
    const contexts = parts.map((part, i) => {
      const code = codes[i] ?? '';
      if (OUTSIDE.test(code.replace(FORWARDING, ''))) return part.compile(code);
      const script = new vm.Script(`(function (native, PartialReadError) {\nreturn (${code})()\n})`, { filename: `${file}#${i}`, cachedData: caches[i] });
      const context = script.runInThisContext()(part.native, PartialReadError);
      if (!caches[i] || script.cachedDataRejected) {
        caches[i] = script.createCachedData();
        changed = true;
      }
      return context;
    });
    if (changed) writeHeld(file, label, { codes, caches });
    const proto = new CompiledProtodef(...contexts);
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
 * The three codes in `file` when it was written for `label` and is whole, else undefined; with their code caches
 * when those were made by this Node.
 * @param {string} file @param {string} label @returns {Held | undefined}
 */
function readHeld(file, label) {
  try {
    const held = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (held.label !== label || !Array.isArray(held.codes) || held.codes.length !== 3) return undefined;
    if (!held.codes.every((/** @type {unknown} */ c) => typeof c === 'string' && c.startsWith('() => {'))) return undefined;
    const ours = held.runtime === RUNTIME && Array.isArray(held.caches);
    const caches = [0, 1, 2].map((i) => (ours && typeof held.caches[i] === 'string' ? Buffer.from(held.caches[i], 'base64') : undefined));
    return { codes: held.codes, caches };
  } catch {
    return undefined;
  }
}

/**
 * Write the codes and their code caches for later processes, whole or not at all (a file beside, then renamed): a
 * code cache is only ever read with the code it was made from. A cache that cannot be written (a read-only
 * install, a full disk) only means the next process compiles them again.
 * @param {string} file @param {string} label @param {Held} held
 */
function writeHeld(file, label, { codes, caches }) {
  const aside = `${file}.${process.pid}.tmp`;
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(aside, JSON.stringify({ label, codes, runtime: RUNTIME, caches: caches.map((c) => c?.toString('base64') ?? null) }));
    fs.renameSync(aside, file);
  } catch {
    fs.rmSync(aside, { force: true });
  }
}

module.exports = { cacheCodecs };
