/** The consumer proof: the packed library installed into fresh NestJS apps from the README's lines, then SIGTERMed mid-run (dev tooling). */
export { CJS_APP, CONSUMER_APPS, ESM_APP, type ConsumerApp, type ConsumerMode } from './consumer-app-matrix';
export { ConsumerProof, describeMode } from './consumer-proof';
export { ConsumerProcess } from './consumer-process';
export { CountingOpenAiServer } from './counting-openai-server';
export { installConsumerApp, type InstalledApp } from './install-consumer-app';
export { installCommands, INSTALL_FLAGS } from './install-commands';
export { installedCopies, installedVersion } from './installed-copies';
export { nodeBinary } from './node-binary';
export { packLibrary, type PackedLibrary } from './pack-library';
export { libraryReadmeInstallLines, readmeInstallLines, LIBRARY_README } from './readme-install';
