import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

/** Every peer of the library (and the platforms and AI SDK provider app (a) uses), whose newest release `deps:latest` installs. */
export const PEERS = [
  '@nestjs/common',
  '@nestjs/core',
  '@nestjs/platform-express',
  '@nestjs/platform-fastify',
  '@nestjs/typeorm',
  '@nestjs/terminus',
  'typeorm',
  'ai',
  '@ai-sdk/openai',
  'openai',
  '@openai/agents',
  '@langchain/langgraph',
  '@langchain/core',
  'ioredis',
  'prom-client',
  '@ag-ui/client',
];

/** The newest release (`npm view <name> version`, the `latest` tag) of each package, by name. */
export async function latestVersions(names: readonly string[]): Promise<Record<string, string>> {
  const versions = await Promise.all(
    names.map(async (name) => {
      const { stdout } = await promisify(execFile)('npm', ['view', name, 'version'], {
        timeout: 60_000,
      });
      return [name, stdout.trim()] as const;
    }),
  );
  return Object.fromEntries(versions);
}
