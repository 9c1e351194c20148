import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { Duplex } from 'node:stream';
import type { LibvirtHost } from './host';

/**
 * A byte stream to a unix socket on a host: connected directly on this machine, or through the
 * host's `run` prefix with socat (over ssh for a remote host). Never a TCP port.
 */
export async function openUnixStream(host: LibvirtHost, socket: string): Promise<Duplex> {
  if (host.prefix.length === 0) {
    const stream = connect(socket);
    await new Promise<void>((resolve, reject) => {
      stream.once('connect', resolve);
      stream.once('error', reject);
    });
    return stream;
  }
  const [file, ...args] = host.command(['socat', 'STDIO', `UNIX-CONNECT:${socket}`]);
  const child = spawn(file!, args, { stdio: ['pipe', 'pipe', 'ignore'] });
  const stream = Duplex.from({ readable: child.stdout, writable: child.stdin });
  // Ending the stream early (the viewer left) aborts its pipes: that is no failure to report.
  stream.on('error', () => child.kill());
  stream.on('close', () => child.kill());
  child.on('exit', () => stream.destroy());
  return stream;
}
