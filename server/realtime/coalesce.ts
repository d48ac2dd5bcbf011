// Frames written to one SockJS connection in the same turn of the event loop go out as one SockJS message (STOMP
// frames are NUL-terminated, so a message may carry several; @stomp/stompjs parses them one by one). A batch of
// ingested events is published in one turn: a console then gets one WebSocket message per batch instead of one per
// event, and a browser showing 2,000 events/s runs tens of tasks a second instead of thousands (issue 13).
import type { Transport } from './session';

/** Above this many characters waiting, they are written at once (a message stays small enough to parse in one go). */
export const COALESCE_MAX_CHARS = 16 * 1024;

export function coalescing(
  target: Transport,
  later: (flush: () => void) => void = (f) => {
    setImmediate(f);
  },
): Transport & { flush(): void } {
  let waiting: string[] = [];
  let chars = 0;
  let scheduled = false;
  const flush = () => {
    if (!waiting.length) return;
    const text = waiting.length === 1 ? waiting[0] : waiting.join('');
    waiting = [];
    chars = 0;
    target.send(text);
  };
  return {
    send(text) {
      waiting.push(text);
      chars += text.length;
      if (chars >= COALESCE_MAX_CHARS) {
        flush();
        return;
      }
      if (!scheduled) {
        scheduled = true;
        later(() => {
          scheduled = false;
          flush();
        });
      }
    },
    /** what is waiting goes first: an ERROR frame (or anything before it) is never lost to the close */
    close() {
      flush();
      target.close();
    },
    flush,
  };
}
