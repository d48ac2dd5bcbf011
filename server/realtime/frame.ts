// STOMP 1.2 frames: an incremental parser (bytes in, frames and heart-beats out) and a serializer.
// https://stomp.github.io/stomp-specification-1.2.html — EOL is LF or CRLF, headers are escaped except in
// CONNECT/CONNECTED, the first of a repeated header wins, content-length reads exactly that many octets
// (which may include NULs), otherwise the body ends at the first NUL. EOLs between frames are heart-beats.

import { fill, type Sentence } from '../../contract/messages';

export type Headers = Record<string, string>;
export interface Frame {
  command: string;
  headers: Headers;
  body: Buffer;
}

/** Why a frame is refused, as a sentence (issue 48: the ERROR frame carries its key; the English is STOMP's `message`). */
export const FRAME_SAID = {
  malformed: fill('stomp.malformedFrame', 'Malformed frame', {}),
  frameTooLarge: fill('stomp.frameTooLarge', 'Frame too large', {}),
  tooManyHeaders: fill('stomp.tooManyHeaders', 'Too many headers', {}),
  bodyTooLarge: fill('stomp.bodyTooLarge', 'Body too large', {}),
} as const;

export class FrameError extends Error {
  constructor(
    /** the refusal's sentence (its key and English: STOMP's `message`) */
    readonly said: Sentence,
    readonly detail?: string,
  ) {
    super(said.message);
  }
}

export interface ParserLimits {
  maxFrameBytes: number;
  maxBodyBytes: number;
  maxHeaders: number;
}

const NUL = 0;
const LF = 10;
const CR = 13;
const UNESCAPED = new Set(['CONNECT', 'CONNECTED', 'STOMP']);

function unescape(value: string): string {
  if (value.indexOf('\\') < 0) return value; // most values have nothing escaped
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

const NEEDS_ESCAPE = /[\\\r\n:]/;
export function escape(value: string): string {
  return value.replace(/[\\\r\n:]/g, (c) => (c === '\\' ? '\\\\' : c === '\r' ? '\\r' : c === '\n' ? '\\n' : '\\c'));
}

/** Feed it bytes as they arrive; it calls back per complete frame and per heart-beat EOL. */
export class FrameParser {
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
    // the head ends at the first empty line; LFs are found by the buffer's native search, not a byte at a time in
    // script (a console reads thousands of frames a second: issue 30)
    let end = -1;
    let bodyStart = -1;
    let scanned = buf.length; // how far the head was searched: a NUL before there is refused
    for (let i = buf.indexOf(LF); i >= 0; i = buf.indexOf(LF, i + 1)) {
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
      if (i + 2 >= buf.length) {
        scanned = i;
        break;
      }
    }
    const nul = buf.indexOf(NUL);
    if (nul >= 0 && nul < (end >= 0 ? end : scanned)) throw new FrameError(FRAME_SAID.malformed, 'NUL before the end of the headers');
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
    const escaped = !UNESCAPED.has(command);
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      if (colon <= 0) throw new FrameError(FRAME_SAID.malformed, `bad header line ${JSON.stringify(line.slice(0, 40))}`);
      const k = escaped ? unescape(line.slice(0, colon)) : line.slice(0, colon);
      const v = escaped ? unescape(line.slice(colon + 1)) : line.slice(colon + 1);
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

/** A frame as text (SockJS carries text): headers escaped unless CONNECTED, content-length set when there is a body. */
export function serialize(command: string, headers: Headers, body: string | Buffer = ''): string {
  const bytes = typeof body === 'string' ? Buffer.byteLength(body, 'utf8') : body.length;
  const raw = UNESCAPED.has(command);
  // every event published is a frame per console: one string built, and a header escaped only when it needs it
  let text = `${command}\n`;
  for (const k in headers) {
    if (bytes > 0 && k === 'content-length') continue;
    const v = headers[k];
    text += raw ? `${k}:${v}\n` : `${NEEDS_ESCAPE.test(k) ? escape(k) : k}:${NEEDS_ESCAPE.test(v) ? escape(v) : v}\n`;
  }
  if (bytes > 0) text += `content-length:${bytes}\n`;
  return `${text}\n${typeof body === 'string' ? body : body.toString('utf8')}\0`;
}

/**
 * The MESSAGE frames of one subscription, as `serialize` writes them (the same headers in the same order, escaped the
 * same way), with everything but the message id and the body written once: a console's subscription to /events
 * gets thousands a second (issue 30). `bytes` is the body's UTF-8 length, measured once for all its subscribers.
 */
export function messageFrames(subscription: string, destination: string): (messageId: string, body: string, bytes: number) => string {
  const head = `MESSAGE\n${headerText('subscription', subscription)}message-id:`;
  const rest = `\n${headerText('destination', destination)}${headerText('content-type', 'application/json')}`;
  return (messageId, body, bytes) =>
    `${head}${NEEDS_ESCAPE.test(messageId) ? escape(messageId) : messageId}${rest}${bytes > 0 ? `content-length:${bytes}\n` : ''}\n${body}\0`;
}
const headerText = (k: string, v: string) => `${NEEDS_ESCAPE.test(k) ? escape(k) : k}:${NEEDS_ESCAPE.test(v) ? escape(v) : v}\n`;
