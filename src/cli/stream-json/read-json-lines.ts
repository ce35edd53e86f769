/** One line of the host's input: a JSON value, or the text of a line that is not JSON. */
export type InputLine =
  | { readonly kind: 'json'; readonly value: unknown }
  | { readonly kind: 'invalid'; readonly text: string; readonly message: string };

/** Reads newline-delimited JSON from `stream`, a line at a time; blank lines are skipped. */
export async function* readJsonLines(stream: NodeJS.ReadableStream): AsyncGenerator<InputLine> {
  stream.setEncoding('utf8');
  let buffered = '';
  for await (const chunk of stream) {
    buffered += String(chunk);
    let newline = buffered.indexOf('\n');
    while (newline >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      const parsed = parseLine(line);
      if (parsed) yield parsed;
      newline = buffered.indexOf('\n');
    }
  }
  const last = parseLine(buffered);
  if (last) yield last;
}

function parseLine(line: string): InputLine | undefined {
  const text = line.trim();
  if (text === '') return undefined;
  try {
    return { kind: 'json', value: JSON.parse(text) as unknown };
  } catch (error) {
    return {
      kind: 'invalid',
      text: text.slice(0, 200),
      message: error instanceof Error ? error.message : String(error),
    };
  }
}
