import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FRAME_SAID, FrameError, FrameParser, escape, messageFrames, serialize, type Frame } from './frame';

const limits = { maxFrameBytes: 1024, maxBodyBytes: 256, maxHeaders: 8 };
function parse(...chunks: Array<string | Buffer>) {
  const frames: Frame[] = [];
  let beats = 0;
  const p = new FrameParser(
    limits,
    (f) => frames.push(f),
    () => beats++,
  );
  for (const c of chunks) p.push(c);
  return { frames, beats };
}

describe('STOMP frame parser', () => {
  it('reads a frame split across chunks, with CRLF line ends', () => {
    const { frames } = parse('SEND\r\ndestination:/topic/greetings\r\n', '\r\n{"content":"hi"}', '\0');
    expect(frames).toHaveLength(1);
    expect(frames[0].command).toBe('SEND');
    expect(frames[0].headers.destination).toBe('/topic/greetings');
    expect(frames[0].body.toString()).toBe('{"content":"hi"}');
  });

  it('counts EOLs between frames as heart-beats', () => {
    const { frames, beats } = parse('\n\r\n', 'DISCONNECT\n\n\0', '\n');
    expect(frames.map((f) => f.command)).toEqual(['DISCONNECT']);
    expect(beats).toBe(3);
  });

  it('reads exactly content-length octets, NULs included', () => {
    const body = Buffer.from([1, 0, 2]);
    const { frames } = parse(Buffer.concat([Buffer.from('SEND\ncontent-length:3\n\n'), body, Buffer.from([0])]));
    expect([...frames[0].body]).toEqual([1, 0, 2]);
  });

  it('unescapes headers except in CONNECT, and the first repeated header wins', () => {
    const { frames } = parse('SEND\na\\cb:c\\nd\\\\\na:1\na:2\n\n\0', 'CONNECT\npasscode:x\\cy\n\n\0');
    expect(frames[0].headers).toEqual({ 'a:b': 'c\nd\\', a: '1' });
    expect(frames[1].headers.passcode).toBe('x\\cy');
  });

  it('rejects an undefined escape, a bad command line and a header without a colon', () => {
    expect(() => parse('SEND\na:\\t\n\n\0')).toThrow(FrameError);
    expect(() => parse('hello world\n\n\0')).toThrow(/Malformed/);
    expect(() => parse('SEND\nnocolon\n\n\0')).toThrow(/Malformed/);
  });

  it('rejects bodies and frames over the limits, even before they end', () => {
    expect(() => parse(`SEND\n\n${'x'.repeat(257)}`)).toThrow(/Body too large/);
    expect(() => parse('SEND\ncontent-length:300\n\n')).toThrow(/Body too large/);
    expect(() => parse(`SEND\nh:${'x'.repeat(1100)}`)).toThrow(/Frame too large/);
    expect(() => parse(`SEND\n${Array.from({ length: 9 }, (_, i) => `h${i}:v`).join('\n')}\n\n\0`)).toThrow(/Too many headers/);
  });

  it('serializes with escaped headers, content-length in bytes and a NUL', () => {
    expect(escape('a:b\nc\\')).toBe('a\\cb\\nc\\\\');
    const text = serialize('MESSAGE', { destination: '/a:b' }, 'é');
    expect(text).toBe('MESSAGE\ndestination:/a\\cb\ncontent-length:2\n\né\0');
    const { frames } = parse(text);
    expect(frames[0].headers.destination).toBe('/a:b');
    expect(frames[0].body.toString()).toBe('é');
    expect(serialize('CONNECTED', { version: '1.2' })).toBe('CONNECTED\nversion:1.2\n\n\0');
  });

  it('serializes a frame that reads back: content-length once, from the body itself; escaped names and values survive the round trip', () => {
    const text = serialize('MESSAGE', { 'content-length': '99', 'x\\y': 'a\nb:c\rd', subscription: 'sub-0' }, '{"a":1}');
    expect(text.match(/content-length:/g)).toHaveLength(1);
    const { frames } = parse(text);
    expect(frames[0].headers).toEqual({ 'x\\y': 'a\nb:c\rd', subscription: 'sub-0', 'content-length': '7' });
    expect(frames[0].body.toString()).toBe('{"a":1}');
    // without a body no content-length is added; one given is kept as given
    expect(serialize('RECEIPT', { 'receipt-id': 'r:1' })).toBe('RECEIPT\nreceipt-id:r\\c1\n\n\0');
    expect(serialize('MESSAGE', { 'content-length': '0' })).toBe('MESSAGE\ncontent-length:0\n\n\0');
  });

  it("writes a subscription's MESSAGE frames as serialize writes them: escaped ids and destinations, bytes of any text, an empty body", () => {
    const text = fc.string({ unit: fc.constantFrom('a', '/', ':', '\\', '\n', '\r', 'é', '漢', '😀', '0') });
    fc.assert(
      fc.property(text, text, text, fc.oneof(text, fc.constant('')), (subscription, destination, messageId, body) => {
        const headers = { subscription, 'message-id': messageId, destination, 'content-type': 'application/json' };
        expect(messageFrames(subscription, destination)(messageId, body, Buffer.byteLength(body))).toBe(serialize('MESSAGE', headers, body));
      }),
      { numRuns: 500 },
    );
  });
  it('reads any bytes, in any chunks, as the byte-at-a-time parser it replaced did: the same frames, heart-beats and refusals', () => {
    const token = fc.constantFrom(
      'SEND',
      'MESSAGE',
      'CONNECT',
      'a',
      'b:c',
      ':',
      '\n',
      '\r\n',
      '\r',
      '\0',
      '\n\n',
      '\\n',
      '\\c',
      '\\\\',
      '\\t',
      '\\',
      'content-length:2',
      'content-length:x',
      'é',
      '{}',
    );
    const outcome = (P: new (l: ParserLimits, f: (f: Frame) => void, h: () => void) => { push(c: Buffer): void }, chunks: Buffer[]) => {
      const seen: unknown[] = [];
      const p = new P(
        limits,
        (f) => seen.push([f.command, f.headers, f.body.toString('hex')]),
        () => seen.push('beat'),
      );
      try {
        for (const c of chunks) p.push(c);
      } catch (e) {
        seen.push(e instanceof FrameError ? ['refused', e.message, e.detail] : ['threw', String(e)]);
      }
      return seen;
    };
    fc.assert(
      fc.property(fc.array(token, { maxLength: 40 }), fc.array(fc.nat(), { maxLength: 4 }), (tokens, cuts) => {
        const bytes = Buffer.from(tokens.join(''), 'utf8');
        const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((x, y) => x - y);
        const chunks = [0, ...at].map((from, i) => bytes.subarray(from, [...at, bytes.length][i]));
        expect(outcome(FrameParser, chunks)).toEqual(outcome(ByteWalkParser, chunks));
      }),
      { numRuns: 3000 },
    );
  });
});

// ---- the oracle: frame.ts's parser before its head search used the buffer's own (2026-11-29), kept as it was ----
const NUL = 0;
const LF = 10;
const CR = 13;
const UNESCAPED = new Set(['CONNECT', 'CONNECTED', 'STOMP']);
type Headers = Record<string, string>;
type ParserLimits = typeof limits;
function unescapeOld(value: string): string {
  return value.replace(/\\(.?)/gs, (_m, c: string) => {
    switch (c) {
      case 'n':
        return '\n';
      case 'r':
        return '\r';
      case 'c':
        return ':';
      case '\\':
        return '\\';
      default:
        throw new FrameError(FRAME_SAID.malformed, `undefined escape sequence \\${c}`);
    }
  });
}

/** The parser as it was until 2026-11-29 (its head searched a byte at a time in script): the oracle of the one in use. */
class ByteWalkParser {
  private buf: Buffer = Buffer.alloc(0);

  constructor(
    private readonly limits: ParserLimits,
    private readonly onFrame: (f: Frame) => void,
    private readonly onHeartbeat: () => void,
  ) {}

  push(chunk: Buffer | string): void {
    const data = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    this.buf = this.buf.length ? Buffer.concat([this.buf, data]) : data;
    for (;;) {
      // heart-beats: EOLs before a frame
      let i = 0;
      while (i < this.buf.length && (this.buf[i] === LF || (this.buf[i] === CR && this.buf[i + 1] === LF))) {
        i += this.buf[i] === CR ? 2 : 1;
        this.onHeartbeat();
      }
      if (i) this.buf = this.buf.subarray(i);
      if (!this.buf.length) return;
      const parsed = this.tryFrame();
      if (!parsed) {
        if (this.buf.length > this.limits.maxFrameBytes) throw new FrameError(FRAME_SAID.frameTooLarge, `over ${this.limits.maxFrameBytes} bytes`);
        return;
      }
      this.buf = this.buf.subarray(parsed.consumed);
      this.onFrame(parsed.frame);
    }
  }

  private tryFrame(): { frame: Frame; consumed: number } | null {
    const buf = this.buf;
    // the head ends at the first empty line
    let end = -1;
    let bodyStart = -1;
    for (let i = 0; i < buf.length; i++) {
      if (buf[i] === NUL && end < 0) throw new FrameError(FRAME_SAID.malformed, 'NUL before the end of the headers');
      if (buf[i] !== LF) continue;
      if (buf[i + 1] === LF) {
        end = i;
        bodyStart = i + 2;
        break;
      }
      if (buf[i + 1] === CR && buf[i + 2] === LF) {
        end = i;
        bodyStart = i + 3;
        break;
      }
      if (i + 2 >= buf.length) break;
    }
    if (end < 0) {
      if (buf.length > this.limits.maxFrameBytes) throw new FrameError(FRAME_SAID.frameTooLarge, `headers over ${this.limits.maxFrameBytes} bytes`);
      return null;
    }
    const lines = buf
      .subarray(0, end)
      .toString('utf8')
      .split('\n')
      .map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
    const command = lines[0];
    if (!/^[A-Z]+$/.test(command)) throw new FrameError(FRAME_SAID.malformed, `bad command line ${JSON.stringify(command.slice(0, 40))}`);
    if (lines.length - 1 > this.limits.maxHeaders) throw new FrameError(FRAME_SAID.tooManyHeaders, `over ${this.limits.maxHeaders}`);
    const headers: Headers = {};
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      if (colon <= 0) throw new FrameError(FRAME_SAID.malformed, `bad header line ${JSON.stringify(line.slice(0, 40))}`);
      const raw = [line.slice(0, colon), line.slice(colon + 1)];
      const [k, v] = UNESCAPED.has(command) ? raw : raw.map(unescapeOld);
      if (!(k in headers)) headers[k] = v; // §2.2.3 of STOMP 1.2: the first occurrence wins
    }
    let bodyEnd: number;
    if (headers['content-length'] !== undefined) {
      if (!/^\d{1,10}$/.test(headers['content-length'])) throw new FrameError(FRAME_SAID.malformed, 'bad content-length');
      const length = Number(headers['content-length']);
      if (length > this.limits.maxBodyBytes) throw new FrameError(FRAME_SAID.bodyTooLarge, `over ${this.limits.maxBodyBytes} bytes`);
      if (buf.length < bodyStart + length + 1) {
        if (bodyStart + length + 1 > this.limits.maxFrameBytes) throw new FrameError(FRAME_SAID.frameTooLarge, `over ${this.limits.maxFrameBytes} bytes`);
        return null;
      }
      if (buf[bodyStart + length] !== NUL) throw new FrameError(FRAME_SAID.malformed, 'body not followed by NUL');
      bodyEnd = bodyStart + length;
    } else {
      bodyEnd = buf.indexOf(NUL, bodyStart);
      if (bodyEnd < 0) {
        if (buf.length - bodyStart > this.limits.maxBodyBytes) throw new FrameError(FRAME_SAID.bodyTooLarge, `over ${this.limits.maxBodyBytes} bytes`);
        return null;
      }
      if (bodyEnd - bodyStart > this.limits.maxBodyBytes) throw new FrameError(FRAME_SAID.bodyTooLarge, `over ${this.limits.maxBodyBytes} bytes`);
    }
    if (bodyEnd + 1 > this.limits.maxFrameBytes) throw new FrameError(FRAME_SAID.frameTooLarge, `over ${this.limits.maxFrameBytes} bytes`);
    return { frame: { command, headers, body: Buffer.from(buf.subarray(bodyStart, bodyEnd)) }, consumed: bodyEnd + 1 };
  }
}
