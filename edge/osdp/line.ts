// Listens to a byte duplex through a FrameParser, flushing a torn packet once the line has been silent past the
// inter-character time. §5.9 lets a sender leave at most 20 ms between the characters of one packet; a receiver that
// is a Node process may itself be late to read them (a busy event loop sees a gap that was not on the wire), so we
// flush only after 20 ms plus RECEIVE_JITTER_MS, and only once the I/O that was waiting has been read.
import { INTER_CHARACTER_TIMEOUT_MS } from './constants.js';
import { FrameParser, type ParserEvent } from './parser.js';
import type { ByteDuplex } from './transport.js';

export const RECEIVE_JITTER_MS = 30;

export class LineReader {
  readonly parser = new FrameParser();
  private gap: NodeJS.Timeout | undefined;
  private chunks = 0;
  private readonly onData = (chunk: Buffer) => {
    this.chunks++;
    clearTimeout(this.gap);
    for (const e of this.parser.push(chunk)) this.emit(e);
    if (this.parser.pending) this.arm();
  };
  constructor(
    private readonly line: ByteDuplex,
    private readonly emit: (e: ParserEvent) => void,
    private readonly interCharacterMs = INTER_CHARACTER_TIMEOUT_MS + RECEIVE_JITTER_MS,
  ) {
    line.on('data', this.onData);
  }
  private arm() {
    const seen = this.chunks;
    this.gap = setTimeout(
      () =>
        setImmediate(() => {
          if (this.chunks === seen) this.parser.flush().forEach(this.emit);
        }),
      this.interCharacterMs,
    );
  }
  close() {
    clearTimeout(this.gap);
    this.chunks = -1;
    this.line.off('data', this.onData);
  }
}
