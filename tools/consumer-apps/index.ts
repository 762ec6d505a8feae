/** The consumer proof: the packed library installed into fresh NestJS apps from the README's lines, then SIGTERMed mid-run (dev tooling). */
export {
  APP_PEERS,
  CJS_APP,
  CONSUMER_APPS,
  ESM_APP,
  FRAMEWORK_PEERS,
  type ConsumerApp,
  type ConsumerMode,
} from './consumer-app-matrix';
export { ConsumerProof, describeMode } from './consumer-proof';
export { ConsumerProcess } from './consumer-process';
export { CountingOpenAiServer } from './counting-openai-server';
export {
  addToConsumerApp,
  compileConsumerApp,
  installConsumerApp,
  missingFromApp,
  type InstalledApp,
} from './install-consumer-app';
export { installCommands, INSTALL_FLAGS } from './install-commands';
export { installedCopies, installedVersion } from './installed-copies';
export {
  buildsLoaded,
  moduleInstanceProblems,
  moduleInstances,
  packageOf,
  readModuleLedger,
  type ModuleLoad,
} from './module-instances';
export { ledgerFile, LEDGER_PRELOAD, runWithModuleLedger } from './module-ledger-run';
export { nodeBinary } from './node-binary';
export { packLibrary, type PackedLibrary } from './pack-library';
export { libraryReadmeInstallLines, readmeInstallLines, LIBRARY_README } from './readme-install';
export {
  readmeImportedPackages,
  readmeTypeScriptBlocks,
  writeReadmeBlocks,
  type ReadmeBlock,
} from './readme-blocks';
export { ReleaseChangeProof } from './release-change-proof';
export type { OrderFramework, OrderRelease, RecordedRelease, ReleaseCase } from './order-cases';
