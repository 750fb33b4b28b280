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

const missing = needs.filter((n) => !n.present())
if (missing.length === 0) process.exit(0)

const pkgs = missing.map((n) => n.pkg)
const canInstall = process.getuid?.() === 0 && fs.existsSync('/usr/bin/apt-get')
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
