// A TypeDoc plugin: names each module of the API reference by the import path a user writes.
// TypeDoc names an entry point by its file's path (`index`, `redis`, `ai-sdk`); the reference
// shows `nest-agent-graceful-shutdown` and `nest-agent-graceful-shutdown/redis` instead.
import { Converter, ReflectionKind } from 'typedoc';

const PACKAGE = 'nest-agent-graceful-shutdown';

/**
 * The import path of the entry TypeDoc named `name`: the root entry for `index`, else the subpath.
 *
 * @example
 * importPath('index'); // 'nest-agent-graceful-shutdown'
 * importPath('ai-sdk'); // 'nest-agent-graceful-shutdown/ai-sdk'
 */
export function importPath(name) {
  return name === 'index' ? PACKAGE : `${PACKAGE}/${name.replace(/\/index$/, '')}`;
}

/** Registers the renaming before TypeDoc resolves links, so links and pages use the new names. */
export function load(app) {
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    for (const module of context.project.getChildrenByKind(ReflectionKind.Module))
      module.name = importPath(module.name);
  });
}
