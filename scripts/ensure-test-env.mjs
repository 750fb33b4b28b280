#!/usr/bin/env node
// First step of `npm test`: make sure the system packages the tests drive are present, so the
// README's test command works on a bare machine. As root with apt it installs what is missing;
// otherwise it stops at once with one line naming the exact command to run.
import { execFileSync, spawnSync } from 'node:child_process'
import fs from 'node:fs'

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/** Debian packages the test suite needs, each with the check that says it is there. */
const needs = [
  { pkg: 'chromium', why: 'browser tests', present: () => fs.existsSync(chromium) },
  {
    pkg: 'python3-paho-mqtt',
    why: 'the independent MQTT client test',
    present: () => spawnSync('/usr/bin/python3', ['-c', 'import paho.mqtt.client'], { stdio: 'ignore' }).status === 0,
  },
]

/**
 * Wanted, not needed: Debian's `chromium-headless-shell`, which the browser tests run instead of the
 * full `chromium` when present (a third less CPU, decision 096). Installed with the rest as root
 * with apt; otherwise one line, and the tests use `chromium`.
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell'
const wanted = process.env.CHROMIUM_PATH || fs.existsSync(HEADLESS_SHELL) ? [] : [{ pkg: 'chromium-headless-shell', why: 'cheaper browser tests', present: () => fs.existsSync(HEADLESS_SHELL) }]

const missing = needs.filter((n) => !n.present())
const canInstall = process.getuid?.() === 0 && fs.existsSync('/usr/bin/apt-get')
if (wanted.length && !canInstall) console.log(`Browser tests use the full chromium: \`sudo apt-get install -y chromium-headless-shell\` makes them cheaper.`)
if (missing.length === 0 && !(wanted.length && canInstall)) process.exit(0)
if (missing.length === 0) {
  // only the wanted package: a failure here costs CPU, not the run
  try {
    console.log('Installing chromium-headless-shell with apt-get (cheaper browser tests)...')
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env })
    execFileSync('apt-get', ['install', '-y', '-qq', 'chromium-headless-shell'], { stdio: ['ignore', 'ignore', 'inherit'], env })
  } catch {
    console.log('apt-get could not install chromium-headless-shell: the browser tests use the full chromium.')
  }
  process.exit(0)
}
missing.push(...(canInstall ? wanted : []))

const pkgs = missing.map((n) => n.pkg)
if (!canInstall) {
  console.error(`Missing ${pkgs.join(', ')} (${missing.map((n) => n.why).join(', ')}): run \`sudo apt-get install -y ${pkgs.join(' ')}\`${missing.some((n) => n.pkg === 'chromium') ? ' (or set CHROMIUM_PATH)' : ''}, then npm test again.`)
  process.exit(1)
}
console.log(`Installing ${pkgs.join(', ')} with apt-get (needed by ${missing.map((n) => n.why).join(', ')})...`)
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
try {
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env })
  execFileSync('apt-get', ['install', '-y', '-qq', ...pkgs], { stdio: ['ignore', 'ignore', 'inherit'], env })
} catch {
  console.error(`apt-get could not install ${pkgs.join(' ')}: install them by hand (apt-get install -y ${pkgs.join(' ')}), then npm test again.`)
  process.exit(1)
}
const still = missing.filter((n) => !n.present())
if (still.length > 0) {
  console.error(`Still missing after apt-get: ${still.map((n) => n.pkg).join(', ')}.`)
  process.exit(1)
}
