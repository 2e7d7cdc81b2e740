// @ts-check
'use strict';
/*
 * minecraft-protocol loaded without what mindlink's processes pay for at start and never run, for the copy a
 * file finds (mineflayer's, flying-squid's): call `leanProtocol` before that copy is first loaded.
 *
 *  - protodef builds a schema-checking ProtoDef as it loads (ajv compiling protodef's JSON schemas: a tenth
 *    of a second) only to export its type table, which an unchecked one has the same; its schema checker is
 *    loaded when something first asks for a checked ProtoDef.
 *  - minecraft-protocol loads Microsoft sign-in (prismarine-auth, MSAL, JSON web tokens, Realms: a tenth of a
 *    second) as it loads; it is loaded when a client first signs in with Microsoft.
 *  - its packet codecs come from the cache of codec-cache.cjs.
 *
 * Each stand-in loads the real module on first use and hands over to it, so behaviour is the library's own.
 */
const Module = require('node:module');
const path = require('node:path');
const { cacheCodecs } = require('./codec-cache.cjs');

/** @type {Set<string>} minecraft-protocol copies already made lean */
const done = new Set();

/**
 * Put `exports` in the module cache as the module `file`, so that requiring `file` gives them.
 * @param {string} file @param {unknown} exports
 */
function standIn(file, exports) {
  const module = new Module(file);
  module.filename = file;
  module.paths = /** @type {{ _nodeModulePaths(dir: string): string[] }} */ (/** @type {unknown} */ (Module))._nodeModulePaths(path.dirname(file));
  module.exports = exports;
  module.loaded = true;
  require.cache[file] = module;
}

/**
 * The real module `file` behind a stand-in: the stand-in leaves the module cache and the file is loaded (once).
 * @param {string} file @returns {() => any}
 */
function realModule(file) {
  /** @type {unknown} */
  let real;
  return () => {
    if (real === undefined) {
      delete require.cache[file];
      real = require(file);
    }
    return real;
  };
}

/**
 * Make the minecraft-protocol that `from` (a file of the package that uses it) finds lean, before it is loaded;
 * a copy already loaded is left as it is.
 * @param {string} from
 * @param {{ cacheDir?: string }} [options] where the codec cache is (default: `.cache/mindlink-codecs` in the node_modules that copy is in)
 */
function leanProtocol(from, options = {}) {
  const mpDir = path.dirname(require.resolve('minecraft-protocol/package.json', { paths: [path.dirname(from)] }));
  if (done.has(mpDir)) return;
  done.add(mpDir);
  if (require.cache[require.resolve(mpDir)]) return;
  const protodefSrc = path.join(path.dirname(require.resolve('protodef/package.json', { paths: [mpDir] })), 'src');
  const protodefIndex = path.join(protodefSrc, 'index.js');
  if (!require.cache[protodefIndex]) {
    const validatorFile = require.resolve('protodef-validator', { paths: [protodefSrc] });
    const validator = realModule(validatorFile);
    // A class whose instances are the real checker's (a constructor that returns an object gives that object).
    standIn(validatorFile, function Validator(/** @type {unknown[]} */ ...args) {
      return new (validator())(...args);
    });
    const ProtoDef = require(path.join(protodefSrc, 'protodef.js'));
    const { Serializer, Parser, FullPacketParser } = require(path.join(protodefSrc, 'serializer.js'));
    standIn(protodefIndex, {
      ProtoDef,
      Serializer,
      Parser,
      FullPacketParser,
      Compiler: require(path.join(protodefSrc, 'compiler.js')),
      types: new ProtoDef(false).types,
      utils: require(path.join(protodefSrc, 'utils.js')),
    });
  }
  const microsoftFile = require.resolve(path.join(mpDir, 'src', 'client', 'microsoftAuth.js'));
  const microsoft = realModule(microsoftFile);
  standIn(microsoftFile, {
    authenticate: (/** @type {unknown[]} */ ...args) => microsoft().authenticate(...args),
    realmAuthenticate: (/** @type {unknown[]} */ ...args) => microsoft().realmAuthenticate(...args),
  });
  cacheCodecs(mpDir, options.cacheDir ?? path.join(path.dirname(mpDir), '.cache', 'mindlink-codecs'));
}

module.exports = { leanProtocol };
