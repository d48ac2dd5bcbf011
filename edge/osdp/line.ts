// Listens to a byte duplex through a FrameParser, flushing a torn packet once the line has been silent for the
// inter-character time (§5.9: at most 20 ms between the characters of one packet).
import { INTER_CHARACTER_TIMEOUT_MS } from './constants.js';
import { FrameParser, type ParserEvent } from './parser.js';
import type { ByteDuplex } from './transport.js';

export class LineReader {
  readonly parser = new FrameParser();
  private gap: NodeJS.Timeout | undefined;
  private readonly onData = (chunk: Buffer) => {
    clearTimeout(this.gap);
    for (const e of this.parser.push(chunk)) this.emit(e);
    if (this.parser.pending) this.gap = setTimeout(() => this.parser.flush().forEach(this.emit), this.interCharacterMs);
  };
  constructor(
    private readonly line: ByteDuplex,
    private readonly emit: (e: ParserEvent) => void,
    private readonly interCharacterMs = INTER_CHARACTER_TIMEOUT_MS,
  ) {
    line.on('data', this.onData);
  }
  close() {
    clearTimeout(this.gap);
    this.line.off('data', this.onData);
  }
}
