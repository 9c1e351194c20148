import { Duplex } from 'node:stream';

const BACKSPACE = new Set(['\b', '\x7f']);
/** A login name or password longer than this is cut, as a getty would. */
const MAX_LINE = 256;

/**
 * A sim server's text console, as its tty shows it: the login prompt, the keys typed echoed
 * (not the password's), and "Login incorrect" for every attempt. Text in, text out; a backspace
 * comes back as `\b` for the page to take the last character away.
 */
export class SimTextConsole extends Duplex {
  private line = '';
  private askingPassword = false;

  constructor(private readonly screen: { host: string; banner: string }) {
    super();
    this.push(`${screen.banner}\n\n${this.prompt()}`);
  }

  private prompt() {
    return `${this.screen.host} login: `;
  }

  override _read() {}

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error) => void) {
    let out = '';
    for (const key of chunk.toString('utf8')) {
      if (key === '\r' || key === '\n') {
        out += this.askingPassword ? `\n\nLogin incorrect\n${this.prompt()}` : '\nPassword: ';
        this.askingPassword = !this.askingPassword;
        this.line = '';
      } else if (BACKSPACE.has(key)) {
        if (this.line && !this.askingPassword) out += '\b';
        this.line = [...this.line].slice(0, -1).join('');
      } else if (key >= ' ' && this.line.length < MAX_LINE) {
        this.line += key;
        if (!this.askingPassword) out += key;
      }
    }
    if (out) this.push(out);
    done();
  }

  override _final(done: () => void) {
    this.push(null);
    done();
  }
}
