'use strict';
/**
 * A jest resolver that loads the packages of one peer set (see peer-set.ts) from the set's
 * folder instead of the repository's node_modules, for every request, from the specs and from
 * inside node_modules alike, so one run sees one version of each. It resolves as jest's own
 * resolver does (package `exports` and their `require` condition included), only from another
 * folder. The set is named by the environment: PEER_SET_DIR (the folder holding its
 * node_modules) and PEER_SET_NAMES (a JSON array of package names).
 */

/** `@scope/name` or `name` of a bare request such as `@nestjs/core/injector`, else undefined. */
function packageOf(request) {
  if (request.startsWith('.') || request.startsWith('/')) return undefined;
  const parts = request.split('/');
  return request.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** The resolver for the set of `names` installed under `dir` (no set when `dir` is unset). */
function createPeerSetResolver(dir, names) {
  const set = new Set(names);
  return (request, options) => {
    const name = packageOf(request);
    if (dir && name && set.has(name))
      return options.defaultResolver(request, { ...options, basedir: dir });
    return options.defaultResolver(request, options);
  };
}

module.exports = createPeerSetResolver(
  process.env.PEER_SET_DIR,
  JSON.parse(process.env.PEER_SET_NAMES || '[]'),
);
module.exports.createPeerSetResolver = createPeerSetResolver;
