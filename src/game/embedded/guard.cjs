// @ts-check
'use strict';
/*
 * One catch per boundary for the embedded world's plugins: a packet or event
 * handler that throws is reported on stderr (the parent logs it) and the
 * world carries on, instead of the child crashing on an unhandled rejection.
 */

/**
 * Wrap a handler (sync or async): its errors are written to stderr with `what`.
 * @template {any[]} A
 * @template R
 * @param {string} what
 * @param {(...args: A) => R} fn
 * @returns {(...args: A) => R | undefined}
 */
function guard(what, fn) {
  /** @param {any} err */
  const report = (err) => process.stderr.write(`${what} failed: ${err && err.stack ? err.stack : String(err)}\n`);
  return (...args) => {
    try {
      const r = fn(...args);
      if (r && typeof (/** @type {any} */ (r)).then === 'function') return /** @type {any} */ (r).catch(report);
      return r;
    } catch (err) {
      report(err);
      return undefined;
    }
  };
}

module.exports = { guard };
