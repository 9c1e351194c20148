import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { labProviderConfig, readBuiltImage } from './lab-config';
import { requireTools, startLabHost, stopLabHost, type LabHost } from './lab-host';

/**
 * `npm run libvirt:lab -- up|down|status`: a lab hypervisor host on this machine (see
 * lab-host.ts), and the provider configuration that points Launchpad at it.
 */

const say = (text: string) => process.stdout.write(`${text}\n`);

const dataDir = path.resolve(import.meta.dirname, '../../data/libvirt');
const stateFile = path.join(dataDir, 'lab-host.json');
const configFile = path.join(dataDir, 'lab-provider.json');

async function up() {
  if (existsSync(stateFile)) {
    say(`A lab host is up already (${stateFile}); \`npm run libvirt:lab -- down\` first.`);
    return;
  }
  const missing = requireTools();
  if (missing.length > 0) throw new Error(`Missing on this machine: ${missing.join(', ')}`);
  const image = readBuiltImage();
  mkdirSync(dataDir, { recursive: true });
  const lab = await startLabHost({ baseDir: '/var/lib/launchpad-lab' });
  writeFileSync(stateFile, JSON.stringify(lab, null, 2));
  writeFileSync(configFile, JSON.stringify(labProviderConfig(lab, image), null, 2));
  say(`Lab host ${lab.id} is up: libvirtd at ${lab.uri}
Provider configuration: ${configFile}

  LIBVIRT_CONFIG=${path.relative(process.cwd(), configFile)} npm start

The public network is the namespace ${lab.outsideNs} (${lab.uplink.gateway}/${lab.uplink.prefixLength}); public IPs come from ${lab.publicIpPool}:

  ip netns exec ${lab.outsideNs} curl http://<public IP>/`);
}

function down() {
  if (!existsSync(stateFile)) {
    say('No lab host is up.');
    return;
  }
  const lab = JSON.parse(readFileSync(stateFile, 'utf8')) as LabHost;
  stopLabHost(lab);
  rmSync(stateFile);
  rmSync(configFile, { force: true });
  say(`Lab host ${lab.id} is down: its guests, networks, namespaces and files are gone.`);
}

const command = process.argv[2];
if (command === 'up') await up();
else if (command === 'down') down();
else if (command === 'status') {
  say(existsSync(stateFile) ? readFileSync(stateFile, 'utf8') : 'No lab host is up.');
} else {
  console.error('usage: npm run libvirt:lab -- up|down|status');
  process.exitCode = 2;
}
