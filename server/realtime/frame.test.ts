import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FrameError, FrameParser, escape, messageFrames, serialize, type Frame } from './frame';

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
});
