import { createInterface } from 'node:readline/promises';
import { Writable } from 'node:stream';
import { CliError, exitCodes } from './errors';

/**
 * Questions on the terminal, asked on stderr so that stdout stays for results. A secret's answer
 * is not echoed: readline writes the typed characters to an output that drops them. Piped input is
 * read a line an answer, so a script may log in: `printf '%s\n' "$URL" "$TOKEN" | launchpad login`.
 */
export function prompter() {
  const terminal = process.stdin.isTTY === true;
  let muted = false;
  const output = new Writable({
    write(chunk, _encoding, done) {
      if (!muted) process.stderr.write(chunk);
      done();
    },
  });
  const rl = createInterface({ input: process.stdin, output, terminal });
  // Piped lines may all arrive before the first question: the iterator keeps them until asked.
  const lines = terminal ? undefined : rl[Symbol.asyncIterator]();
  // Ctrl-D or Ctrl-C at a question closes the interface without answering it.
  const closed = new Promise<never>((_resolve, reject) =>
    rl.once('close', () => reject(new CliError('No answer given', exitCodes.usage))),
  );
  closed.catch(() => undefined);
  const question = (text: string) => Promise.race([rl.question(text), closed]);
  const ask = async (text: string): Promise<string> => {
    if (terminal) return question(text);
    process.stderr.write(text);
    const next = await lines!.next();
    process.stderr.write('\n');
    if (next.done) throw new CliError('No answer on standard input', exitCodes.usage);
    return next.value;
  };
  return {
    ask,
    async askSecret(text: string) {
      if (!terminal) return ask(text);
      process.stderr.write(text);
      muted = true;
      try {
        return await question('');
      } finally {
        muted = false;
        process.stderr.write('\n');
      }
    },
    close: () => rl.close(),
  };
}
