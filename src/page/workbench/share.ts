/**
 * A rule's source in a link: deflate-raw (the browser's own
 * CompressionStream, no dependency) then base64url, so the link's hash holds
 * `#~<packed>?<param>=<value>&…`. A link is data from anywhere: the packed
 * text is refused past MAX_PACKED_LENGTH characters, and what it unpacks to
 * past MAX_SOURCE_LENGTH characters (a few bytes of deflate can stand for
 * megabytes), each with one line.
 */

/** The longest rule source a link carries, in characters: the largest port (reserves.mjs) is about 13,000. */
export const MAX_SOURCE_LENGTH = 200_000;
/** The longest packed source read from a link: a 200,000-character rule compresses to well under this. */
export const MAX_PACKED_LENGTH = 120_000;
/** What starts the hash of a link that carries code, where a rule id would be. */
export const CODE_MARK = '~';

export async function packSource(source: string): Promise<string> {
  const stream = new Blob([new TextEncoder().encode(source)])
    .stream()
    .pipeThrough(new CompressionStream('deflate-raw'));
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  let binary = '';
  for (let index = 0; index < bytes.length; index += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000));
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

/** The source a link carries, or the one line that says why it cannot be read. */
export async function unpackSource(packed: string): Promise<{ source: string } | { problem: string }> {
  if (packed.length > MAX_PACKED_LENGTH)
    return {
      problem:
        `link: its code is ${packed.length.toLocaleString('en-US')} characters packed; allowed: at most ` +
        `${MAX_PACKED_LENGTH.toLocaleString('en-US')}`,
    };
  const broken = {
    problem: 'link: its code is not readable (cut short or changed); allowed: a link the Share button made',
  };
  if (!/^[A-Za-z0-9_-]*$/.test(packed)) return broken;
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    const binary = atob(packed.replaceAll('-', '+').replaceAll('_', '/'));
    bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
  } catch {
    return broken;
  }
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
  const reader = stream.getReader();
  const parts: Uint8Array[] = [];
  let length = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      length += value.length;
      // UTF-8 is at least one byte a character: more bytes than the limit in characters is too long whatever they say.
      if (length > MAX_SOURCE_LENGTH * 4) {
        await reader.cancel();
        return tooLong();
      }
      parts.push(value);
    }
  } catch {
    return broken;
  }
  const joined = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  let source: string;
  try {
    source = new TextDecoder('utf-8', { fatal: true }).decode(joined);
  } catch {
    return broken;
  }
  return source.length > MAX_SOURCE_LENGTH ? tooLong() : { source };
}

function tooLong(): { problem: string } {
  return {
    problem:
      `link: its code is longer than ${MAX_SOURCE_LENGTH.toLocaleString('en-US')} characters; allowed: a ` +
      `rule file up to that length`,
  };
}
