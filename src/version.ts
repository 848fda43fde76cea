import { createRequire } from 'node:module';

const pkg = createRequire(import.meta.url)('../package.json') as { version: string };

/** athar's version, as recorded in custody events and the OpenAPI document. */
export const version: string = pkg.version;
