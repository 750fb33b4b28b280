/**
 * `npm run cli:api-calls`: writes cli/api-calls.generated.json, the manifest `pixelfleet api` builds
 * its commands from, out of the live call registry. Run it after adding or changing an API call.
 */
import fs from 'node:fs'
import { pathToFileURL } from 'node:url'
import { buildOpenApiDocument } from '../app/api/openapi.server'
import { buildApiCallsManifest, type OpenApiDocument } from './api-calls-manifest'
import { CLI_LESS_CALLS } from './commands/api'

export const API_CALLS_FILE = new URL('./api-calls.generated.json', import.meta.url)

/** The manifest's file text (pure but for reading the registry). */
export const apiCallsManifestText = () => {
  // the document as clients read it (paths are typed loosely where it is built)
  const document = buildOpenApiDocument() as unknown as OpenApiDocument
  return JSON.stringify(buildApiCallsManifest(document, CLI_LESS_CALLS), null, 1) + '\n'
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  fs.writeFileSync(API_CALLS_FILE, apiCallsManifestText())
  console.log(`wrote ${API_CALLS_FILE.pathname}`)
}
