import { ensureNodeRuntime, type NodeMajor } from 'dev-services';

/** A `node` binary of `major`: this process's own when it is that major, else one fetched by `ensureNodeRuntime`. */
export function nodeBinary(major: NodeMajor): Promise<string> {
  return process.versions.node.startsWith(`${major}.`)
    ? Promise.resolve(process.execPath)
    : ensureNodeRuntime(major);
}
